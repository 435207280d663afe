// launch: --grid 256 --block 256
// about: struct of arrays: the same field, stored in its own array, takes 4 sectors per request
__global__ void soa(const float* x, const float* y, const float* z, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[i];
}
