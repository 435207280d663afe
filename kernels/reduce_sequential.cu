// launch: --grid 256 --block 256
// about: reduction with sequential addressing: conflict-free, whole warps retire
__global__ void reduce_sequential(const float* in, float* out) {
  __shared__ float sdata[256];
  unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}
