// launch: --grid 32,32 --block 32,8
// about: the same 2D array walked down its columns: every lane its own sector
#define W 1024
__global__ void column_major(const float* in, float* out) {
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y * 8 + threadIdx.y;
  out[col * W + row] = in[col * W + row] * 2.0f;
}
