// launch: --grid 256 --block 256
// about: thread i reads element i*STRIDE: sectors per request grow with the stride (try -D STRIDE=32)
#define STRIDE 2
__global__ void strided(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * STRIDE];
}
