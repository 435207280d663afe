//! Kernels as people write them: C's integer semantics, vector loads, every unsupported construct
//! reported at once, cooperative groups, templates, typedefs, calls, and the block shortcut.

use warpdrill::analyze::{self, Options};

fn run(source: &str) -> analyze::Report {
    analyze::analyze(source, "k.cu", &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn run_with(
    source: &str,
    kernel: Option<&str>,
    defines: &[(&str, &str)],
) -> analyze::Result<analyze::Report> {
    let options = Options {
        kernel: kernel.map(str::to_string),
        defines: defines
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        ..Options::default()
    };
    analyze::analyze(source, "k.cu", &options)
}

#[test]
fn unsigned_arithmetic_wraps_as_in_c() {
    // threadIdx.x is unsigned: `threadIdx.x - 8` wraps for lanes 0–7, which then fail `< n`.
    // Lanes 8–31 store bytes 32–127: 3 sectors (signed 64-bit arithmetic gave all 32 lanes, 4).
    let r = run("// launch: --grid 1 --block 32
__global__ void k(float* out, int n) {
  if (threadIdx.x - 8 < n) out[threadIdx.x] = 1.0f;
}"
    .replace("int n)", "int n_)")
    .replace("< n", "< 24")
    .as_str());
    assert_eq!(r.totals.global_store_requests, 1);
    assert_eq!(r.totals.global_store_sectors, 3);
}

#[test]
fn signed_int_comparisons_stay_signed_and_int_wraps_at_32_bits() {
    // `int` stays signed: all 32 lanes pass `tid - 8 < 24`, 4 sectors.
    let r = run("// launch: --grid 1 --block 32
__global__ void k(float* out) {
  int tid = threadIdx.x;
  if (tid - 8 < 24) out[tid] = 1.0f;
}");
    assert_eq!(r.totals.global_store_sectors, 4);
    // 2³¹ wraps to a negative int, so the condition is false and nothing is stored.
    let r = run("// launch: --grid 1 --block 32
__global__ void k(float* out) {
  int big = 2147483647;
  big = big + 1;
  if (big > 0) out[threadIdx.x] = 1.0f;
}");
    assert_eq!(r.totals.global_store_instructions, 0);
    // An unsigned shift right of a wrapped value: (0u - 1) >> 28 is 15.
    let r = run("// launch: --grid 1 --block 32
__global__ void k(float* out) {
  unsigned int u = 0u - 1u;
  out[(u >> 28) * 32 + threadIdx.x] = 1.0f;
}");
    let line = &r.lines[0];
    assert_eq!(line.counts.global_store_sectors, 4);
}

#[test]
fn two_fields_of_a_float2_are_one_8_byte_load() {
    let r = run("// launch: --grid 1 --block 32
__global__ void k(const float2* in, float* out) {
  int i = threadIdx.x;
  out[i] = in[i].x + in[i].y;
}");
    // nvcc emits one LDG.64 for the element: 1 request, 256 bytes = 8 sectors (not 2 and 16).
    assert_eq!(r.totals.global_load_requests, 1);
    assert_eq!(r.totals.global_load_sectors, 8);
    let load = r
        .lines
        .iter()
        .find(|l| l.counts.global_load_requests > 0)
        .unwrap();
    assert_eq!(load.bytes, 8);
    // One field alone is a 4-byte load of every other word: still 8 sectors, one request.
    let r = run("// launch: --grid 1 --block 32
__global__ void k(const float2* in, float* out) {
  out[threadIdx.x] = in[threadIdx.x].y;
}");
    assert_eq!(r.totals.global_load_requests, 1);
    assert_eq!(r.lines[0].bytes, 4);
}

#[test]
fn every_unsupported_construct_is_reported_at_once() {
    let e = run_with(
        "// launch: --grid 1 --block 32
__global__ void k(float* out, float** p) {
  goto end;
  out[threadIdx.x] = 1.0f;
  end: ;
}",
        None,
        &[],
    )
    .unwrap_err()
    .to_string();
    let lines: Vec<&str> = e.lines().collect();
    assert!(lines.len() >= 2, "{e}");
    assert!(
        lines[0].starts_with("k.cu:2:36: not supported: pointers to pointers"),
        "{e}"
    );
    assert!(
        lines[1].starts_with("k.cu:3:3: not supported: the statement `goto end;`"),
        "{e}"
    );
}

#[test]
fn a_syntax_error_in_another_function_does_not_block_the_kernel() {
    let source = "// launch: --grid 1 --block 32
void host() { int x = ; }
__global__ void k(float* out) {
  out[threadIdx.x] = 1.0f;
}";
    let r = run(source);
    assert_eq!(r.totals.global_store_sectors, 4);
    // One inside the kernel is still reported, with its place.
    let bad = source.replace("1.0f;", "1.0f +;");
    let e = run_with(&bad, None, &[]).unwrap_err().to_string();
    assert!(e.starts_with("k.cu:4:"), "{e}");
}

#[test]
fn cooperative_groups_ranks_count_like_thread_indices() {
    let cg = run("// launch: --grid 2 --block 128
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* out, const float* in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  float v = in[i];
  v = cg::reduce(warp, v, cg::plus<float>());
  block.sync();
  if (warp.thread_rank() == 0) out[blockIdx.x * 4 + warp.meta_group_rank()] = v;
}");
    let plain = run("// launch: --grid 2 --block 128
__global__ void k(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  __syncthreads();
  if (threadIdx.x % 32 == 0) out[blockIdx.x * 4 + threadIdx.x / 32] = v;
}");
    assert_eq!(cg.totals, plain.totals);
    assert_eq!(cg.totals.global_store_instructions, 8);
}

#[test]
fn typedefs_math_calls_casts_and_float_scalars_need_no_define() {
    let r = run("// launch: --grid 4 --block 256
typedef float floatX;
#define TILE 32 // a comment after the value
#ifndef GUARD_H
#define GUARD_H
__global__ void k(floatX* out, const floatX* in, float alpha, uint n) {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  #pragma unroll
  for (int t = 0; t < 2; t++) {
    floatX x = (floatX)in[i];
    out[i] = alpha * tanhf(sqrtf(x) + __expf(x)) + fmaxf(x, INFINITY) + (float)min(t, TILE);
  }
}
#endif");
    assert_eq!(r.totals.global_load_requests, 8 * 4 * 2);
    assert_eq!(r.totals.global_store_sectors, 32 * 4 * 2);
}

#[test]
fn templates_are_instantiated_from_the_kernel_name_or_the_launch() {
    let source = "// launch: --grid 1 --block 32
template <int STRIDE, typename T>
__global__ void k(T* out) {
  out[threadIdx.x * STRIDE] = 0;
}
void host(float* d) { k<2, float><<<1, 32>>>(d); }";
    let from_launch = run(source);
    // 32 floats two words apart: 256 bytes, 8 sectors.
    assert_eq!(from_launch.totals.global_store_sectors, 8);
    let given = run_with(source, Some("k<4, double>"), &[]).unwrap();
    // 32 doubles four apart: one sector each.
    assert_eq!(given.totals.global_store_sectors, 32);
}

#[test]
fn an_affine_index_divided_by_a_constant_keeps_the_block_shortcut() {
    // 2²¹ blocks of 8 warps: simulated one by one this is far past the step budget.
    let r = run("// launch: --grid 2097152 --block 256
__global__ void k(float* out) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = (blockIdx.x * blockDim.x + threadIdx.x) % 32;
  out[w * 32 + lane] = 1.0f;
}");
    assert_eq!(r.totals.global_store_requests, 1 << 24);
    assert_eq!(r.totals.global_store_sectors, 4 << 24);
}

#[test]
fn pointer_parameters_moved_with_plus_equals_are_followed() {
    let moved = run("// launch: --grid 4 --block 32
__global__ void k(const float* A, float* C) {
  A += blockIdx.x * 64;
  C += blockIdx.x * 32;
  float s = 0.0f;
  for (int t = 0; t < 2; t++) {
    s += A[threadIdx.x];
    A += 32;
  }
  C[threadIdx.x] = s;
}");
    let indexed = run("// launch: --grid 4 --block 32
__global__ void k(const float* A, float* C) {
  float s = 0.0f;
  for (int t = 0; t < 2; t++) {
    s += A[blockIdx.x * 64 + t * 32 + threadIdx.x];
  }
  C[blockIdx.x * 32 + threadIdx.x] = s;
}");
    assert_eq!(moved.totals, indexed.totals);
    // Offsets that are not whole sectors show: A moved by one float is two sectors a warp.
    let skewed = run("// launch: --grid 1 --block 32
__global__ void k(const float* A, float* C) {
  A++;
  C[threadIdx.x] = A[threadIdx.x];
}");
    assert_eq!(skewed.totals.global_load_sectors, 5);
}

/// Totals as a comparable tuple.
fn counts(r: &analyze::Report) -> [u64; 6] {
    let t = &r.totals;
    [
        t.global_load_sectors,
        t.global_load_requests,
        t.global_store_sectors,
        t.global_store_requests,
        t.shared_load_wavefronts,
        t.shared_store_wavefronts,
    ]
}

#[test]
fn local_pointers_and_dereferences_count_as_the_indices_they_stand_for() {
    // Each kernel written with local pointers, `*p`, `*(p + i)`, `p->x`, `p += k` and `p++`, and
    // the same kernel written with indices: the same accesses.
    let pairs = [
        (
            "// launch: --grid 64 --block 128
__global__ void k(const float* A, float* B) {
  const float* a = A + blockIdx.x * 1000;
  float* b = &B[blockIdx.x * 1000];
  for (int i = threadIdx.x; i < 1000; i += blockDim.x) { b[i] = a[i] * 2.0f; }
}",
            "// launch: --grid 64 --block 128
__global__ void k(const float* A, float* B) {
  for (int i = threadIdx.x; i < 1000; i += blockDim.x) {
    B[blockIdx.x * 1000 + i] = A[blockIdx.x * 1000 + i] * 2.0f;
  }
}",
        ),
        (
            "// launch: --grid 16 --block 32,32
__global__ void k(const float* A, float* B) {
  __shared__ float tile[32][33];
  const float* p = A + blockIdx.x * 32 * 1024;
  float* row = &tile[threadIdx.y][0];
  for (int k = 0; k < 4; k++) {
    row[threadIdx.x] = *(p + threadIdx.y * 1024 + threadIdx.x);
    p += 32;
    __syncthreads();
    *(B + blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x) += tile[threadIdx.x][threadIdx.y];
    __syncthreads();
  }
}",
            "// launch: --grid 16 --block 32,32
__global__ void k(const float* A, float* B) {
  __shared__ float tile[32][33];
  for (int k = 0; k < 4; k++) {
    tile[threadIdx.y][threadIdx.x] = A[blockIdx.x * 32 * 1024 + k * 32 + threadIdx.y * 1024 + threadIdx.x];
    __syncthreads();
    B[blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x] += tile[threadIdx.x][threadIdx.y];
    __syncthreads();
  }
}",
        ),
        (
            "// launch: --grid 4 --block 64
struct P { float x; float y; float z; };
__global__ void k(const P* in, float* out, const int* scale) {
  const P* p = in + blockIdx.x * 64 + threadIdx.x;
  float* o = out + blockIdx.x * 64;
  o += threadIdx.x;
  *o = p->x * (float)*scale;
  o++;
  p++;
  *o = p->y;
}",
            "// launch: --grid 4 --block 64
struct P { float x; float y; float z; };
__global__ void k(const P* in, float* out, const int* scale) {
  out[blockIdx.x * 64 + threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x].x * (float)scale[0];
  out[blockIdx.x * 64 + threadIdx.x + 1] = in[blockIdx.x * 64 + threadIdx.x + 1].y;
}",
        ),
    ];
    for (pointers, indices) in pairs {
        let (a, b) = (run(pointers), run(indices));
        assert_eq!(counts(&a), counts(&b), "{pointers}");
        assert!(counts(&a).iter().any(|&n| n > 0));
    }
}

#[test]
fn reinterpret_cast_float4_loads_are_16_byte_accesses_over_the_float_array() {
    let pairs = [
        (
            "// launch: --grid 8 --block 128
__global__ void k(const float* A, float* B) {
  float4 t = reinterpret_cast<const float4*>(&A[(blockIdx.x * 128 + threadIdx.x) * 4])[0];
  reinterpret_cast<float4*>(&B[(blockIdx.x * 128 + threadIdx.x) * 4])[0] = t;
}",
            "// launch: --grid 8 --block 128
__global__ void k(const float4* A, float4* B) {
  B[blockIdx.x * 128 + threadIdx.x] = A[blockIdx.x * 128 + threadIdx.x];
}",
        ),
        (
            "// launch: --grid 2 --block 256
__global__ void k(const float* A, float* out) {
  const int extra = 4;
  __shared__ float s[4 * (256 + extra)];
  const float4* v = reinterpret_cast<const float4*>(A) + blockIdx.x * 256;
  float acc[4] = {0.0f};
  float4 t = v[threadIdx.x];
  s[threadIdx.x * 4 + 0] = t.x;
  s[threadIdx.x * 4 + 1] = t.y;
  acc[0] = t.z + t.w;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x] + acc[0];
}",
            "// launch: --grid 2 --block 256
__global__ void k(const float4* A, float* out) {
  __shared__ float s[4 * 260];
  float z = A[blockIdx.x * 256 + threadIdx.x].x + A[blockIdx.x * 256 + threadIdx.x].y
          + A[blockIdx.x * 256 + threadIdx.x].z + A[blockIdx.x * 256 + threadIdx.x].w;
  s[threadIdx.x * 4 + 0] = z;
  s[threadIdx.x * 4 + 1] = z;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = s[threadIdx.x] + z;
}",
        ),
    ];
    for (cast, typed) in pairs {
        let (a, b) = (run(cast), run(typed));
        assert_eq!(counts(&a), counts(&b), "{cast}");
        assert_eq!(
            a.totals.global_load_requests, b.totals.global_load_requests,
            "one 16-byte load per lane"
        );
    }
    // A cast to an uneven type is named, not miscounted.
    let err = run_with(
        "// launch: --grid 1 --block 32
struct T3 { float a, b, c; };
__global__ void k(const float2* A, float* B) {
  B[threadIdx.x] = reinterpret_cast<const T3*>(A)[threadIdx.x].a;
}",
        None,
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("reinterpret_cast"), "{err}");
}

#[test]
fn device_functions_are_inlined_with_their_parameters_returns_and_nested_calls() {
    let pairs = [
        (
            // A helper computing an index, one storing through a pointer, one calling another.
            "// launch: --grid 8 --block 128
__device__ int row_major(int r, int c, int n) { return r * n + c; }
__device__ void put(float* p, int i, float v) { p[i] = v; }
__device__ float twice(const float* a, int i) { return 2.0f * a[row_major(0, i, 0)]; }
__global__ void k(const float* A, float* B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  put(B, row_major(threadIdx.x, blockIdx.x, 8), twice(A, i));
}",
            "// launch: --grid 8 --block 128
__global__ void k(const float* A, float* B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  B[threadIdx.x * 8 + blockIdx.x] = 2.0f * A[i];
}",
        ),
        (
            // An early return: the lanes that returned skip the rest of the function.
            "// launch: --grid 2 --block 64
__device__ float clamp_load(const float* a, int i, int n) {
  if (i >= n) return 0.0f;
  float v = a[i];
  return v;
}
__global__ void k(const float* A, float* B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  B[i] = clamp_load(A, i, 100);
}",
            "// launch: --grid 2 --block 64
__global__ void k(const float* A, float* B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < 100) v = A[i];
  B[i] = v;
}",
        ),
    ];
    for (inlined, written) in pairs {
        let (a, b) = (run(inlined), run(written));
        assert_eq!(counts(&a), counts(&b), "{inlined}");
        assert!(counts(&a).iter().any(|&n| n > 0));
    }
    // A call in a loop's condition cannot be inlined there: named.
    let err = run_with(
        "// launch: --grid 1 --block 32
__device__ int limit(int n) { return n; }
__global__ void k(float* B) {
  for (int i = 0; i < limit(4); i++) B[i * 32 + threadIdx.x] = 0.0f;
}",
        None,
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("in a loop's condition"), "{err}");
}

#[test]
fn break_and_continue_end_the_turn_or_the_loop_for_the_lanes_that_take_them() {
    let pairs = [
        (
            "// launch: --grid 2 --block 64
__global__ void k(float* a) {
  for (int j = 0; j < 8; ++j) { if (j == 3) break; a[j * 64 + threadIdx.x] = 0.0f; }
}",
            "// launch: --grid 2 --block 64
__global__ void k(float* a) {
  for (int j = 0; j < 3; ++j) a[j * 64 + threadIdx.x] = 0.0f;
}",
        ),
        (
            "// launch: --grid 2 --block 64
__global__ void k(float* a) {
  for (int j = 0; j < 8; ++j) { if (j % 2 == 1) continue; a[j * 64 + threadIdx.x] = 0.0f; }
}",
            "// launch: --grid 2 --block 64
__global__ void k(float* a) {
  for (int j = 0; j < 8; j += 2) a[j * 64 + threadIdx.x] = 0.0f;
}",
        ),
        (
            // Lanes leave at different turns: each stores as often as it stayed.
            "// launch: --grid 1 --block 64
__global__ void k(float* a) {
  int j = 0;
  while (1) {
    if (j >= (int)(threadIdx.x % 4)) break;
    a[j * 64 + threadIdx.x] = 1.0f;
    j++;
  }
  a[256 + threadIdx.x] = 2.0f;
}",
            "// launch: --grid 1 --block 64
__global__ void k(float* a) {
  for (int j = 0; j < (int)(threadIdx.x % 4); j++) a[j * 64 + threadIdx.x] = 1.0f;
  a[256 + threadIdx.x] = 2.0f;
}",
        ),
    ];
    for (jumps, plain) in pairs {
        let (a, b) = (run(jumps), run(plain));
        assert_eq!(counts(&a), counts(&b), "{jumps}");
        assert!(counts(&a).iter().any(|&n| n > 0));
    }
}

#[test]
fn a_shared_scalar_is_a_one_element_shared_array() {
    let scalar = run("// launch: --grid 4 --block 128
__global__ void k(const float* A, float* B) {
  __shared__ float total;
  if (threadIdx.x == 0) total = A[blockIdx.x];
  __syncthreads();
  B[blockIdx.x * 128 + threadIdx.x] = total;
}");
    let array = run("// launch: --grid 4 --block 128
__global__ void k(const float* A, float* B) {
  __shared__ float t[1];
  if (threadIdx.x == 0) t[0] = A[blockIdx.x];
  __syncthreads();
  B[blockIdx.x * 128 + threadIdx.x] = t[0];
}");
    assert_eq!(counts(&scalar), counts(&array));
    assert_eq!(
        scalar.totals.shared_load_wavefronts, 16,
        "a broadcast: one wavefront per warp"
    );
}
