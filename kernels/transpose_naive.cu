// launch: --grid 32,32 --block 32,8
// about: naive transpose: coalesced reads, but every store lane writes its own sector
#define N 1024
__global__ void transpose_naive(const float* in, float* out) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[x * N + (y + j)] = in[(y + j) * N + x];
}
