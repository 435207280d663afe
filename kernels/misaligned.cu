// launch: --grid 256 --block 256
// about: reading from one element past an aligned start: 5 sectors where 4 would do
#define OFFSET 1
__global__ void misaligned(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + OFFSET];
}
