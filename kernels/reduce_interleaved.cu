// launch: --grid 256 --block 256
// about: reduction with interleaved addressing (t % (2s) == 0): divergent warps, but no bank conflicts
__global__ void reduce_interleaved(const float* in, float* out) {
  __shared__ float sdata[256];
  unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned s = 1; s < 256; s *= 2) {
    if (t % (2 * s) == 0) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}
