// launch: --grid 16,16 --block 16,16
// about: naive matrix multiply: a row of A (one address per half-warp) and a column of B per thread
#define N 256
__global__ void matmul_naive(const float* A, const float* B, float* C) {
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float s = 0;
  for (int k = 0; k < N; ++k)
    s += A[row * N + k] * B[k * N + col];
  C[row * N + col] = s;
}
