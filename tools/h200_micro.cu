// Micro-benchmarks that settle the physical constants of warpdrill's timing model (docs/timing.md):
// kernel launch overhead, block dispatch rate, __syncthreads latency and DRAM write bandwidth.
// None of them is one of the kernels in reference/timing/. Build: nvcc -O3 -arch=sm_90 h200_micro.cu
#include <cstdio>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); return 1; } } while (0)

__global__ void empty() {}
__global__ void barriers(int n, float* out) {
  __shared__ float s[256];
  float v = threadIdx.x;
  for (int i = 0; i < n; ++i) { s[threadIdx.x] = v; __syncthreads(); v += s[255 - threadIdx.x]; }
  if (v == -1.f) out[0] = v;
}
__global__ void write_full(float* out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; out[i] = 1.f;
}
__global__ void write_lone(float* out, int stride) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; out[i * stride] = 1.f;
}

template <class F> float med(F f, int reps = 20) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  std::sort(t.begin(), t.end()); return t[t.size() / 2];
}

int main() {
  float* buf; size_t bytes = (size_t)1 << 32; CK(cudaMalloc(&buf, bytes));
  printf("empty_1x32_ms,%.5f\n", med([] { empty<<<1, 32>>>(); }));
  for (int b : {32, 64, 128, 256, 512, 1024}) {
    int blocks = (1 << 25) / b;
    printf("empty_blocks%d_threads%d_ms,%.5f\n", blocks, b, med([&] { empty<<<blocks, b>>>(); }));
  }
  for (int b : {64, 256}) {
    int blocks = 132 * 4096;
    printf("empty_blocks%d_threads%d_ms,%.5f\n", blocks, b, med([&] { empty<<<blocks, b>>>(); }));
  }
  for (int per_sm : {1, 8}) {
    int n = 4096;
    float t = med([&] { barriers<<<132 * per_sm, 256>>>(n, buf); });
    float t1 = med([&] { barriers<<<132 * per_sm, 256>>>(1, buf); });
    printf("barrier_blocks_per_sm%d_cycles_per_iter,%.2f\n", per_sm, (t - t1) * 1.98e6 / (n - 1));
  }
  // 2^28 floats written: full lines; then one float per 32-byte sector and per 64-byte granule.
  printf("write_full_1GiB_ms,%.5f\n", med([&] { write_full<<<(1 << 28) / 256, 256>>>(buf); }));
  for (int s : {8, 16, 32}) {
    int threads = (1 << 28) / s;
    printf("write_lone_stride%d_threads%d_ms,%.5f\n", s, threads, med([&] { write_lone<<<threads / 256, 256>>>(buf, s); }));
  }
  CK(cudaDeviceSynchronize());
  return 0;
}
