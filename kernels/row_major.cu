// launch: --grid 32,32 --block 32,8
// about: a 2D array walked along its rows: neighbouring threads read neighbouring floats
#define W 1024
__global__ void row_major(const float* in, float* out) {
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y * 8 + threadIdx.y;
  out[row * W + col] = in[row * W + col] * 2.0f;
}
