// launch: --grid 16,16 --block 16,16
// about: tiled matrix multiply with 16×16 shared tiles: each global element read N/16 times fewer
#define N 256
#define T 16
__global__ void matmul_tiled(const float* A, const float* B, float* C) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int row = blockIdx.y * T + ty;
  int col = blockIdx.x * T + tx;
  float s = 0;
  for (int t = 0; t < N / T; ++t) {
    As[ty][tx] = A[row * N + t * T + tx];
    Bs[ty][tx] = B[(t * T + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < T; ++k)
      s += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = s;
}
