// launch: --grid 256 --block 256
// about: reduction with a strided index (i = 2*s*t): no divergence, but bank conflicts
__global__ void reduce_strided_index(const float* in, float* out) {
  __shared__ float sdata[256];
  unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned s = 1; s < 256; s *= 2) {
    unsigned i = 2 * s * t;
    if (i < 256) sdata[i] += sdata[i + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}
