// launch: --grid 32,32 --block 32,8
// about: tiled transpose through float tile[32][32]: coalesced both ways, but the column read is a 32-way bank conflict
#define N 1024
__global__ void transpose_tiled32(const float* in, float* out) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}
