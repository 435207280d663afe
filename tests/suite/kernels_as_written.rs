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
    // In a loop's condition, a function that returns an expression is that expression
    // (llm.c's `ceil_div`); one that needs statements first cannot run there, and is named.
    let in_head = run("// launch: --grid 1 --block 32
template<class T> __host__ __device__ T ceil_div(T a, T b) { return (a + b - 1) / b; }
__global__ void k(float* B) {
  for (int i = 0; i < ceil_div(10, 4); i++) B[i * 32 + threadIdx.x] = 0.0f;
}");
    let written = run("// launch: --grid 1 --block 32
__global__ void k(float* B) {
  for (int i = 0; i < 3; i++) B[i * 32 + threadIdx.x] = 0.0f;
}");
    assert_eq!(counts(&in_head), counts(&written));
    let err = run_with(
        "// launch: --grid 1 --block 32
__device__ int limit(int n) { int m = n; return m; }
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

#[test]
fn function_like_macros_expand_in_the_scope_of_their_use() {
    let pairs = [
        (
            // Index macros, one built from another, an element named by a macro on both sides of
            // an assignment, and a file-scope constant.
            "// launch: --grid 8 --block 128
#define UMUL(a, b) ( (a) * (b) )
#define UMAD(a, b, c) ( UMUL((a), (b)) + (c) )
#define AT(p, r, c) p[(r) * ROW + (c)]
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))
const int ROW = 64;
__global__ void k(const float* A, float* B, int n) {
  int i = UMAD(blockIdx.x, blockDim.x, threadIdx.x);
  int per = CEIL_DIV(n, 128);
  AT(B, threadIdx.x, blockIdx.x) = AT(A, blockIdx.x, threadIdx.x % 64) + A[i * per];
}",
            "// launch: --grid 8 --block 128
__global__ void k(const float* A, float* B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  B[threadIdx.x * 64 + blockIdx.x] = A[blockIdx.x * 64 + threadIdx.x % 64] + A[i * 3];
}",
        ),
        (
            // A macro's value as a local array's size, through `constexpr`.
            "// launch: --grid 1 --block 32
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))
__global__ void k(float* out) {
  constexpr int WM = 8 * 16;
  constexpr int ITER = CEIL_DIV(300, WM);
  float acc[ITER * 4] = {0.0f};
  for (int j = 0; j < ITER; j++) out[j * 32 + threadIdx.x] = acc[j];
}",
            "// launch: --grid 1 --block 32
__global__ void k(float* out) {
  for (int j = 0; j < 3; j++) out[j * 32 + threadIdx.x] = 0.0f;
}",
        ),
    ];
    for (macros, written) in pairs {
        let a = run_with(macros, None, &[("n", "300")]).unwrap_or_else(|e| panic!("{e}"));
        let b = run(written);
        assert_eq!(counts(&a), counts(&b), "{macros}");
        assert!(counts(&a).iter().any(|&n| n > 0));
    }
    // A macro whose body is not an expression is named, at its use.
    let err = run_with(
        "// launch: --grid 1 --block 32
#define CAT(a, b) a ## b
__global__ void k(float* out) { out[threadIdx.x + CAT(1, 2)] = 0.0f; }",
        None,
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("k.cu:3:51") && err.contains("macro `CAT`"),
        "{err}"
    );
}

#[test]
fn templated_device_functions_take_their_arguments_from_the_call() {
    let pairs = [(
        // Namespaced, templated on sizes (a lone name in `<…>` reads as a type to C++), with
        // the kernel's pointer moved, a register array passed by pointer, and a type
        // parameter deduced from the argument.
        "// launch: --grid 4 --block 128
const int WARPSIZE = 32;
namespace tiles {
template <const int BM, const int STRIDE>
__device__ void load(int K, const float* A, float* As, float* reg) {
  for (int o = 0; o + STRIDE <= BM; o += STRIDE) {
    As[o + threadIdx.x] = A[(o + threadIdx.x) * K];
    reg[0] += As[threadIdx.x];
  }
}
template <typename T>
__device__ T twice(T v) { return v + v; }
}
template <const int BM>
__global__ void k(int K, const float* A, float* B) {
  __shared__ float As[BM];
  float reg[4] = {0.0f};
  constexpr int stride = BM / 2;
  for (int t = 0; t < K; t += 8) {
    tiles::load<BM, stride>(K, A, As, reg);
    A += 8;
    __syncthreads();
  }
  B[tiles::twice(blockIdx.x) * WARPSIZE * 4 + threadIdx.x] = reg[0];
}",
        "// launch: --grid 4 --block 128
__global__ void k(const float* A, float* B) {
  __shared__ float As[256];
  for (int t = 0; t < 32; t += 8) {
    for (int o = 0; o + 128 <= 256; o += 128) {
      As[o + threadIdx.x] = A[t + (o + threadIdx.x) * 32];
      float r = As[threadIdx.x];
    }
    __syncthreads();
  }
  B[2 * blockIdx.x * 128 + threadIdx.x] = 1.0f;
}",
    )];
    for (templated, written) in pairs {
        let a =
            run_with(templated, Some("k<256>"), &[("K", "32")]).unwrap_or_else(|e| panic!("{e}"));
        let b = run(written);
        assert_eq!(counts(&a), counts(&b), "{templated}");
        assert!(counts(&a).iter().any(|&n| n > 0));
    }
    // A value template parameter the call does not give is named.
    let err = run_with(
        "// launch: --grid 1 --block 32
template <int N> __device__ int times(int v) { return v * N; }
__global__ void k(float* out) { out[times(threadIdx.x)] = 0.0f; }",
        None,
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("template parameter `N` of `times`"), "{err}");
}

#[test]
fn a_device_function_that_returns_after_a_loop_ends_only_itself() {
    // The `return` of an inlined function once guarded the rest of the caller's block too: the
    // store after the call was never counted.
    let inlined = "// launch: --grid 2 --block 64
__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffff, v, o));
  return v;
}
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float m = warp_max(in[i]);
  out[i] = m;
  if (threadIdx.x % 32 == 0) out[1000 + i / 32] = m;
}";
    let written = "// launch: --grid 2 --block 64
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float m = in[i];
  out[i] = m;
  if (threadIdx.x % 32 == 0) out[1000 + i / 32] = m;
}";
    let (a, b) = (run(inlined), run(written));
    assert_eq!(counts(&a), counts(&b));
    assert_eq!(a.totals.global_store_requests, 8);
}

#[test]
fn headers_beside_the_file_give_types_macros_constants_and_device_functions() {
    let header = "#pragma once
#define WARP 32U
#define IDX(r, c, n) ((r) * (n) + (c))
typedef float floatX;
const int ROWS = 4;
__device__ float reduce_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__device__ void put(floatX* p, int i, floatX v) { p[i] = v; }";
    let kernel = "// launch: --grid 8 --block 128
#include <cuda_runtime.h>
#include \"common.h\"
#include \"common.h\"
__global__ void k(const floatX* in, floatX* out, int n) {
  int row = blockIdx.x * ROWS + threadIdx.x / WARP;
  float s = reduce_sum(in[IDX(row, threadIdx.x % WARP, n)]);
  put(out, IDX(row, threadIdx.x % WARP, n), s);
}";
    let written = "// launch: --grid 8 --block 128
__global__ void k(const float* in, float* out) {
  int row = blockIdx.x * 4 + threadIdx.x / 32;
  out[row * 64 + threadIdx.x % 32] = in[row * 64 + threadIdx.x % 32];
}";
    let options = Options {
        defines: vec![("n".into(), "64".into())],
        headers: vec![("common.h".into(), header.into())],
        ..Options::default()
    };
    let a = analyze::analyze(kernel, "k.cu", &options).unwrap_or_else(|e| panic!("{e}"));
    let b = run(written);
    assert_eq!(counts(&a), counts(&b));
    assert!(a.totals.global_store_requests > 0);
    // The header's accesses are placed at the call in the file.
    let store = a
        .lines
        .iter()
        .find(|l| l.counts.global_store_requests > 0)
        .unwrap();
    assert_eq!(store.line, 8, "{:?}", a.lines);
    // Without the header, the missing type is named.
    let err = run_with(kernel, None, &[("n", "64")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("floatX"), "{err}");
}

#[test]
fn what_a_headers_function_meets_is_placed_where_it_is() {
    // cuda-samples' sortingNetworks: the comparison is in a header, on values read from memory.
    let header = "#pragma once


__device__ void compare(unsigned &a, unsigned &b) {
  if (a > b) { unsigned t = a; a = b; b = t; }
}
__device__ void count(int* bins, int i) { atomicAdd(&bins[i % 8], 1); }";
    let kernel = "// launch: --grid 4 --block 64
#include \"net.cuh\"
__global__ void sort(unsigned* keys, int* bins) {
  __shared__ unsigned s[64];
  s[threadIdx.x] = keys[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 32) compare(s[threadIdx.x], s[threadIdx.x + 32]);
  __syncthreads();
  keys[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x];
  count(bins, threadIdx.x);
}";
    let options = Options {
        headers: vec![("net.cuh".into(), header.into())],
        ..Options::default()
    };
    // The data-dependent branch is the header's line 5, not the file's.
    let err = analyze::analyze(kernel, "sort.cu", &options)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("net.cuh:5:7: "), "{err}");
    assert!(err.contains("s"), "{err}");
    // With the keys said, the atomic the header's function makes is placed at its call (line 10).
    let options = Options {
        assume: vec![
            analyze::assume::Assumption::parse("s=0..1000", std::path::Path::new("."))
                .expect("an assumption"),
        ],
        ..options
    };
    let a = analyze::analyze(kernel, "sort.cu", &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(a.atomic_lines.len(), 1, "{:?}", a.atomic_lines);
    assert_eq!(a.atomic_lines[0].line, 10, "{:?}", a.atomic_lines);
    // … under its own text, which says what it does.
    assert_eq!(
        a.atomics,
        vec!["10:3 atomicAdd(&bins[i % 8], 1)".to_string()]
    );
}

#[test]
fn the_cli_reads_included_headers_from_beside_the_file() {
    let (_keep, dir) = crate::common::temp_dir("headers");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/types.h"), "typedef float real;\n").unwrap();
    std::fs::write(
        dir.join("common.h"),
        "#include \"inc/types.h\"\n#define STRIDE 2\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("k.cu"),
        "#include \"common.h\"\n__global__ void k(real* out) { out[threadIdx.x * STRIDE] = 0.0f; }\n",
    )
    .unwrap();
    let out = crate::common::warpdrill()
        .args(["analyze"])
        .arg(dir.join("k.cu"))
        .args(["--grid", "1", "--block", "32"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Stride 2 over 4-byte elements: 256 bytes, 8 sectors.
    assert!(stdout.contains("1 request, 8 sectors"), "{stdout}");
}

#[test]
fn a_kernel_defined_in_an_included_header_is_analysed_from_the_file_that_includes_it() {
    // cuda-samples keep kernels in `*_kernel.cuh`, included by the `.cu` with the host code.
    let (_keep, dir) = crate::common::temp_dir("kernel-header");
    std::fs::write(
        dir.join("scale_kernel.cuh"),
        "#define STRIDE 2\n__global__ void scale(float* out) { out[threadIdx.x * STRIDE] = 0.0f; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("scale.cu"),
        "#include \"scale_kernel.cuh\"\nint main() { return 0; }\n",
    )
    .unwrap();
    let out = crate::common::warpdrill()
        .args(["analyze"])
        .arg(dir.join("scale.cu"))
        .args([
            "--kernel", "scale", "--grid", "1", "--block", "32", "--text",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 request, 8 sectors"), "{stdout}");
    // The library says where the kernel is.
    let source = "// launch: --grid 1 --block 32\n#include \"scale_kernel.cuh\"\n";
    let options = Options {
        kernel: Some("scale".into()),
        headers: vec![(
            "scale_kernel.cuh".into(),
            "__global__ void scale(float* out) { out[threadIdx.x] = 0.0f; }\n".into(),
        )],
        ..Options::default()
    };
    let err = analyze::analyze(source, "scale.cu", &options)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`scale` is defined in scale_kernel.cuh, which it includes"),
        "{err}"
    );
}

#[test]
fn a_namespaced_call_is_not_taken_for_a_host_function_of_the_same_name() {
    // cuda-samples' reduction: `cg::reduce` in a file whose host code defines `reduce`.
    let r = run("// launch: --grid 4 --block 256
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
template <class T>
void reduce(int size, int threads, int blocks, int which, T* a, T* b) { a[0] = b[0]; }
__global__ void k(const float* in, float* out) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = in[block.thread_rank() + blockIdx.x * 256];
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) out[blockIdx.x * 8 + threadIdx.x / 32] = v;
}");
    assert_eq!(r.totals.global_load_sectors, 4 * 8 * 4);
    assert_eq!(r.totals.global_store_requests, 4 * 8);
}

#[test]
fn the_shared_memory_struct_of_cuda_samples_is_dynamic_shared_memory() {
    let helper = "template <class T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
  __device__ T *getPointer() { extern __shared__ int __smem[]; return (T *)__smem; }
};
";
    let written = "// launch: --grid 16 --block 128
__global__ void k(const int* in, int* out) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}";
    let by_conversion = format!(
        "// launch: --grid 16 --block 128\n{helper}{}",
        written
            .trim_start_matches("// launch: --grid 16 --block 128\n")
            .replace(
                "extern __shared__ int sdata[];",
                "int *sdata = SharedMemory<int>();"
            )
    );
    let by_method = by_conversion.replace(
        "int *sdata = SharedMemory<int>();",
        "SharedMemory<int> smem;\n  int *sdata = smem.getPointer();",
    );
    let b = run(written);
    assert!(b.totals.shared_load_wavefronts > 0);
    for helped in [by_conversion, by_method] {
        let a = run(&helped);
        assert_eq!(counts(&a), counts(&b), "{helped}");
    }
}

#[test]
fn atomics_cache_hints_defaults_and_null_checks_are_read() {
    // An atomic counts nothing itself (Nsight keeps atomics apart) and is listed; `__ldcs(p + i)`
    // and `__stcs(p + i, v)` are a load and a store; a kernel parameter's default is its value;
    // `out != nullptr` holds.
    let r = run_with(
        "// launch: --grid 4 --block 64
__global__ void k(const float* in, float* out, float* total, int width = 2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = __ldcs(in + i * width);
  if (out != nullptr) __stcs(out + i, v);
  atomicAdd(total, v);
}",
        None,
        &[],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let plain = run("// launch: --grid 4 --block 64
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 2];
}");
    assert_eq!(counts(&r), counts(&plain));
    assert_eq!(r.atomics, vec!["6:3 atomicAdd(total, v)".to_string()]);
    // Counted apart: 8 warps, every lane adding a float to one address, one after another.
    let t = r.atomic_totals.expect("atomic totals");
    assert_eq!((t.global_red_requests, t.global_red_sectors), (8, 256));
    let text = analyze::render_text("", &r);
    assert!(text.contains("REDG · 8 requests · 256 sectors"), "{text}");
}

/// The kernels measured on the H200 (Nsight Compute, grid 4096, block 256 unless said): each
/// atomic's requests and sectors, or instructions and wavefronts.
#[test]
fn atomics_are_counted_as_the_h200_counts_them() {
    let source = "#define I (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void g1(int* o) { atomicAdd(&o[blockIdx.x], 1); }
__global__ void g2(int* o) { atomicMax(&o[0], (int)I); }
__global__ void g4(int* o) { atomicAdd(&o[threadIdx.y], 1); }
__global__ void g5(float* o) { atomicAdd(&o[I / 32], 1.0f); }
__global__ void g6(int* o) { atomicAdd(&o[I % 4], 1); }
__global__ void g8(unsigned* o) { atomicInc(&o[0], 1000u); }
__global__ void g9(int* o, int* r) { r[I] = atomicCAS(&o[0], 0, (int)I); }
__global__ void g10(int* o) { atomicExch(&o[I % 2], (int)I); }
__global__ void g11(int* o) { atomicAdd(&o[I], (int)threadIdx.x); }
__global__ void g13(float* o) { atomicAdd(&o[I % 4], 1.0f); }
__global__ void pairs(float* o) { atomicAdd(&o[I / 2], 1.0f); }
__global__ void s1(int* o) { __shared__ int s[256]; s[threadIdx.x] = 0; __syncthreads(); atomicAdd(&s[threadIdx.x % 4], 1); __syncthreads(); o[I] = s[threadIdx.x]; }
__global__ void s2(int* o) { __shared__ int s[256]; s[threadIdx.x] = 0; __syncthreads(); atomicAdd(&s[threadIdx.x % 4], (int)threadIdx.x); __syncthreads(); o[I] = s[threadIdx.x]; }
__global__ void s5(int* o) { __shared__ int s[256]; s[threadIdx.x] = 0; __syncthreads(); atomicAdd(&s[(threadIdx.x * 32) % 256], 1); __syncthreads(); o[I] = s[threadIdx.x]; }
__global__ void s6(float* o) { __shared__ float s[256]; s[threadIdx.x] = 0; __syncthreads(); atomicAdd(&s[threadIdx.x], 1.0f); __syncthreads(); o[I] = s[threadIdx.x]; }
__global__ void s7(float* o) { __shared__ float s[256]; s[threadIdx.x] = 0; __syncthreads(); atomicAdd(&s[0], 1.0f); __syncthreads(); o[I] = s[threadIdx.x]; }
__global__ void s9(double* o) { __shared__ double s[256]; s[threadIdx.x] = 0; __syncthreads(); atomicAdd(&s[threadIdx.x], 1.0); __syncthreads(); o[I] = s[threadIdx.x]; }
__global__ void s10(int* o) { __shared__ int s[256]; s[threadIdx.x] = 0; __syncthreads(); atomicAdd(&s[(threadIdx.x * 32) % 256], (int)threadIdx.x); __syncthreads(); o[I] = s[threadIdx.x]; }
";
    let analyse = |kernel: &str, block: [u32; 3]| {
        let options = Options {
            kernel: Some(kernel.to_string()),
            launch: Some(analyze::Launch {
                grid: [4096, 1, 1],
                block,
            }),
            ..Options::default()
        };
        let r = analyze::analyze(source, "atomics.cu", &options).unwrap_or_else(|e| panic!("{e}"));
        let line = r.atomic_lines.first().cloned().expect("an atomic line");
        (r, line)
    };
    // Global: (kernel, instruction, sectors), 32768 requests each.
    for (kernel, instruction, sectors) in [
        ("g1", "REDG", 32_768), // one lane for the warp (blockIdx is the same for all)
        ("g2", "REDG", 32_768), // a uniform integer max: combined too
        ("g4", "REDG", 1_048_576), // threadIdx.y is uniform only at run time: 32 rounds
        ("g5", "REDG", 1_048_576), // a float is never combined
        ("g6", "REDG", 262_144), // 8 lanes per address: 8 rounds of 1 sector
        ("g8", "REDG", 1_048_576), // atomicInc is not combined
        ("g9", "ATOMG", 1_048_576), // the old value is used; CAS is not combined
        ("g10", "ATOMG", 524_288), // atomicExch is always ATOM; 16 rounds
        ("g11", "REDG", 131_072), // every lane its own int: 4 sectors
        ("g13", "REDG", 262_144),
        ("pairs", "REDG", 131_072), // 2 rounds of 2 sectors
    ] {
        let block = if kernel == "g4" {
            [32, 8, 1]
        } else {
            [256, 1, 1]
        };
        let (r, line) = analyse(kernel, block);
        assert_eq!(
            (line.instruction, line.instructions, line.sectors),
            (instruction, 32_768, sectors),
            "{kernel}"
        );
        let t = r.atomic_totals.expect("totals");
        assert_eq!(
            t.global_atom_sectors + t.global_red_sectors,
            sectors,
            "{kernel}"
        );
    }
    // Shared: (kernel, wavefronts, form); the H200 counts within 3 % of these (its counters add
    // a little arbitration noise): 33 646, 263 868, 263 581, 68 294, 136 629, 1 051 360.
    for (kernel, wavefronts, form) in [
        ("s1", 32_768, "increment"),
        ("s2", 262_144, "rounds"),
        ("s5", 262_144, "increment"),
        ("s6", 65_536, "swap-loop"),
        ("s9", 131_072, "swap-loop"),
        ("s10", 1_048_576, "rounds"),
    ] {
        let (_, line) = analyse(kernel, [256, 1, 1]);
        assert_eq!(
            (line.space, line.wavefronts, line.form, line.retried),
            ("shared", wavefronts, form, 0),
            "{kernel}"
        );
    }
    // The swap loop's first load is a shared load: one more wavefront per warp.
    let (plain, _) = analyse("s2", [256, 1, 1]);
    let (looped, _) = analyse("s6", [256, 1, 1]);
    assert_eq!(
        looped.totals.shared_load_wavefronts,
        plain.totals.shared_load_wavefronts + 32_768
    );
    // 32 lanes on one float: the loop turns as often as timing makes it; not counted.
    let (r, line) = analyse("s7", [256, 1, 1]);
    assert_eq!((line.retried, line.wavefronts), (32_768, 0));
    assert!(
        analyze::render_text("", &r).contains("retry the compare-and-swap loop"),
        "s7"
    );
}

#[test]
fn an_element_read_twice_in_one_expression_is_one_load_unless_volatile() {
    let twice = run("// launch: --grid 8 --block 128
__global__ void k(const float* data, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = data[i] * data[i] + (i > 3 ? data[i] : 0.0f);
}");
    let once = run("// launch: --grid 8 --block 128
__global__ void k(const float* data, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = data[i] * 2.0f + (i > 3 ? data[i] : 0.0f);
}");
    // The read in one arm of `?:` is not reused: it stays (as nvcc may not hoist it either).
    assert_eq!(counts(&twice), counts(&once));
    let volatile = run("// launch: --grid 8 --block 128
__global__ void k(volatile float* data, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = data[i] * data[i];
}");
    assert_eq!(volatile.totals.global_load_requests, 2 * 8 * 4);
}

#[test]
fn overloads_and_function_template_arguments_pick_the_function_called() {
    let r = run("// launch: --grid 2 --block 64
typedef float (*reduce_t)(float);
__device__ float ident(float v) { return v; }
__device__ float at(const float* p, int i) { return p[i]; }
__device__ float at(const float* p, int i, int stride) { return p[i * stride]; }
template <reduce_t f> __device__ float apply(float v) { return f(v); }
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = apply<ident>(at(in, i, 4)) + at(in, i);
}");
    let plain = run("// launch: --grid 2 --block 64
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 4] + in[i];
}");
    assert_eq!(counts(&r), counts(&plain));
}

#[test]
fn a_templated_packed_struct_is_one_wide_access_like_llm_c_x128() {
    // llm.c's Packed128: a templated struct of one array, its size a static constant, loaded and
    // stored whole through `reinterpret_cast<int4*>` by templated functions that return it.
    let packed = "// launch: --grid 96 --block 128
template<class ElementType>
struct alignas(16) Packed128 {
    Packed128() = default;
    __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
    __device__ ElementType& operator[](int index) { return payload[index]; }
    __device__ int4 get_bits() const { int4 bits; memcpy(&bits, &payload, sizeof(bits)); return bits; }
    static constexpr const int size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};
template<class ElementType>
__device__ Packed128<ElementType> load128(const ElementType* address) {
    return Packed128<ElementType>{*reinterpret_cast<const int4*>(address)};
}
template<class ElementType>
__device__ void store128(ElementType* target, Packed128<ElementType> value) {
    *reinterpret_cast<int4*>(target) = value.get_bits();
}
typedef __nv_bfloat16 floatX;
typedef Packed128<floatX> x128;
__global__ void k(floatX* out, const floatX* inp, int N) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (i < N) {
        x128 o;
        x128 in = load128(inp + i);
        for (int j = 0; j < in.size; ++j) o[j] = (floatX)(2.0f * (float)in[j]);
        store128(out + i, o);
    }
}";
    let written = "// launch: --grid 96 --block 128
__global__ void k(__nv_bfloat16* out, const __nv_bfloat16* inp) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
    if (i < 98304) {
        float4 v = reinterpret_cast<const float4*>(&inp[i])[0];
        reinterpret_cast<float4*>(&out[i])[0] = v;
    }
}";
    let a = run_with(packed, None, &[("N", "98304")]).unwrap_or_else(|e| panic!("{e}"));
    let b = run(written);
    assert_eq!(counts(&a), counts(&b));
    // 16 bytes a lane: 16 sectors a request.
    assert_eq!(
        a.totals.global_load_sectors,
        16 * a.totals.global_load_requests
    );
}

#[test]
fn a_compound_assignment_reads_its_element_once_with_the_same_element_in_its_value() {
    // llm.c's adamw_kernel2: `p[i] -= lr * (… + wd * p[i]);` is one load of p[i] on the H200.
    let r = run("// launch: --grid 4 --block 128
__global__ void k(float* p, const float* g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] -= 0.1f * (g[i] + 0.01f * p[i]);
}");
    let once = run("// launch: --grid 4 --block 128
__global__ void k(float* p, const float* g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] -= 0.1f * g[i];
}");
    assert_eq!(counts(&r), counts(&once));
    assert_eq!(r.totals.global_load_requests, 2 * 16);
}

#[test]
fn struct_values_const_references_and_a_vectors_registers_need_no_memory() {
    // llm.c's softmax: a struct returned by a `__device__` function, a `const float4&` parameter,
    // and `reinterpret_cast<const float*>(&v)[k]` of a register value: none of them is an access.
    let r = run("// launch: --grid 8 --block 128
struct Params { float scale; float offset; };
__device__ Params prepare(const float* x, int i) { return Params{1.0f / x[i], x[i + 1]}; }
__device__ float at(const float4& v, int k) { return reinterpret_cast<const float*>(&v)[k]; }
__global__ void k(const float* x, const float4* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Params p = prepare(x, 2 * i);
  float4 v = in[i];
  out[i] = at(v, 2) * p.scale + p.offset;
}");
    let plain = run("// launch: --grid 8 --block 128
__global__ void k(const float* x, const float4* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i].z * x[2 * i] + x[2 * i + 1];
}");
    assert_eq!(counts(&r)[2..], counts(&plain)[2..]);
    // The same requests; the float4 is loaded whole (16 bytes) where `in[i].z` reads 4.
    assert_eq!(
        r.totals.global_load_requests,
        plain.totals.global_load_requests
    );
}

#[test]
fn a_switch_runs_each_case_for_the_lanes_that_reach_it_with_fall_through() {
    let switched = run("// launch: --grid 4 --block 64
__global__ void k(float* out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  switch (threadIdx.x % 4) {
    case 0: out[i] = 1.0f; break;
    case 1: out[i + 64] = 1.0f;
    case 2: { out[i + 128] = 1.0f; if (threadIdx.x > 40) break; out[i + 192] = 2.0f; }
      break;
    default: out[i + 192] = 1.0f;
  }
  out[1024 + i] = 0.0f;
}");
    let written = run("// launch: --grid 4 --block 64
__global__ void k(float* out) {
  int i = blockIdx.x * 256 + threadIdx.x;
  int r = threadIdx.x % 4;
  if (r == 0) out[i] = 1.0f;
  if (r == 1) out[i + 64] = 1.0f;
  if (r == 1 || r == 2) {
    out[i + 128] = 1.0f;
    if (threadIdx.x <= 40) out[i + 192] = 2.0f;
  }
  if (r == 3) out[i + 192] = 1.0f;
  out[1024 + i] = 0.0f;
}");
    assert_eq!(counts(&switched), counts(&written));
    assert!(switched.totals.global_store_requests > 0);
}

#[test]
fn a_local_pointer_moved_to_another_array_in_its_own_block_reads_that_array() {
    // llm.c's softmax_forward_kernel2: `x = out + idx * C;` after reading `inp` through `x`.
    let moved = run("// launch: --grid 8 --block 64
__global__ void k(const float* inp, float* out) {
  int idx = blockIdx.x;
  const float* x = inp + idx * 256;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[idx * 256 + i] = x[i] * 2.0f;
  __syncthreads();
  x = out + idx * 256;
  float s = 0.0f;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) s += x[i];
  out[4096 + idx * 64 + threadIdx.x] = s;
}");
    let written = run("// launch: --grid 8 --block 64
__global__ void k(const float* inp, float* out) {
  int idx = blockIdx.x;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[idx * 256 + i] = inp[idx * 256 + i] * 2.0f;
  __syncthreads();
  float s = 0.0f;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) s += out[idx * 256 + i];
  out[4096 + idx * 64 + threadIdx.x] = s;
}");
    assert_eq!(counts(&moved), counts(&written));
    // Inside a branch it cannot be followed: named.
    let err = run_with(
        "// launch: --grid 1 --block 32
__global__ void k(const float* inp, float* out) {
  const float* x = inp;
  if (threadIdx.x < 8) x = out;
  out[threadIdx.x] = x[threadIdx.x];
}",
        None,
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("inside a branch or loop"), "{err}");
}

#[test]
fn a_device_functions_default_arguments_fill_the_ones_a_call_leaves_out() {
    let r = run("// launch: --grid 4 --block 64
__device__ float at(const float* p, int i, int stride = 2, int base = 0) { return p[base + i * stride]; }
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = at(in, i) + at(in, i, 1) + at(in, i, 1, 64);
}");
    let written = run("// launch: --grid 4 --block 64
__global__ void k(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 2] + in[i] + in[64 + i];
}");
    assert_eq!(counts(&r), counts(&written));
}

#[test]
fn an_argument_read_for_its_type_is_not_listed_as_an_access_that_never_runs() {
    // An atomic's value and a templated function's argument were once lowered twice: the second
    // copy showed as a line's access that "never runs".
    for source in [
        "// launch: --grid 1 --block 32
__global__ void k(const float* in, float* total) {
  atomicAdd(total, in[threadIdx.x]);
}",
        "// launch: --grid 1 --block 32
template <typename T> __device__ T twice(T v) { return v + v; }
__global__ void k(const float* in, float* out) {
  out[threadIdx.x] = twice(in[threadIdx.x]);
}",
    ] {
        let r = run(source);
        for l in &r.lines {
            let c = &l.counts;
            let ran = c.global_load_instructions + c.global_store_instructions;
            assert!(ran > 0, "{}: {} never runs\n{source}", l.line, l.text);
        }
        assert_eq!(r.totals.global_load_requests, 1, "{source}");
    }
}

#[test]
fn a_function_called_several_times_is_one_entry_among_the_costliest() {
    // The same conflicting access, inlined from two calls: one place, one text, the costs summed.
    let src = "// launch: --grid 1 --block 32
__device__ void bump(float* s, int i) {
  s[i * 2] += 1.0f;
}
__global__ void k(float* out) {
  __shared__ float s[64 * 4];
  bump(s, threadIdx.x);
  bump(s, threadIdx.x + 32);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}";
    let r = run(src);
    let text = analyze::render_text(src, &r);
    let costliest = text.split("costliest accesses").nth(1).unwrap_or("");
    let entries: Vec<&str> = costliest
        .lines()
        .filter(|l| l.trim_start().starts_with("3:3 "))
        .collect();
    assert_eq!(entries.len(), 1, "{text}");
    let extra: u64 = r
        .lines
        .iter()
        .filter(|a| a.line == 3)
        .map(|a| a.extra_wavefronts)
        .sum();
    assert!(extra > 0);
    assert!(
        entries[0].contains(&format!("{extra} extra wavefronts")),
        "{text}"
    );
}

#[test]
fn waste_is_counted_per_execution_against_the_best_the_access_could_do() {
    // One lane stores per block: one sector each time, the best a 4-byte store can do.
    let one_lane = "// launch: --grid 56 --block 256
__global__ void k(const float* in, float* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = in[blockIdx.x * 256];
}";
    let r = run(one_lane);
    assert!(
        r.lines.iter().all(|a| a.wasted_sectors == 0),
        "{:?}",
        r.lines
    );
    let text = analyze::render_text(one_lane, &r);
    assert!(
        text.contains("no wasted sectors and no bank conflicts"),
        "{text}"
    );
    // Lanes on one word ask for it once: a broadcast load wastes nothing either.
    let r = run("// launch: --grid 4 --block 64
__global__ void k(const float* in, float* out) {
  out[blockIdx.x * 64 + threadIdx.x] = in[blockIdx.x];
}");
    assert!(
        r.lines.iter().all(|a| a.wasted_sectors == 0),
        "{:?}",
        r.lines
    );
    // A stride of two floats: 8 sectors where 4 would hold the 128 bytes, per execution.
    let r = run("// launch: --grid 4 --block 64
__global__ void k(float* out) {
  out[(blockIdx.x * 64 + threadIdx.x) * 2] = 1.0f;
}");
    let store = &r.lines[0];
    assert_eq!(store.counts.global_store_sectors, 8 * 8);
    assert_eq!(store.wasted_sectors, 4 * 8, "{:?}", r.lines);
    // Misaligned by one float: 5 sectors where 4 would do.
    let r = run("// launch: --grid 4 --block 64
__global__ void k(const float* in, float* out) {
  out[blockIdx.x * 64 + threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x + 1];
}");
    let load = r
        .lines
        .iter()
        .find(|a| a.counts.global_load_requests > 0)
        .unwrap();
    assert_eq!(load.counts.global_load_sectors, 5 * 8);
    assert_eq!(load.wasted_sectors, 8);
}

#[test]
fn tiles_wider_than_a_warp_are_followed_where_they_are_index_arithmetic() {
    let src = "// launch: --grid 2 --block 256
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <int W>
__global__ void k(float* out) {
  auto cta = cg::this_thread_block();
  auto t = cg::tiled_partition<W>(cta);
  if (t.thread_rank() == 0) out[blockIdx.x * 4 + t.meta_group_rank()] = t.size();
}";
    let options = Options {
        kernel: Some("k<64>".into()),
        ..Options::default()
    };
    let r = analyze::analyze(src, "k.cu", &options).unwrap_or_else(|e| panic!("{e}"));
    // Four tiles of 64 per block, one store each.
    assert_eq!(r.totals.global_store_requests, 2 * 4, "{:?}", r.totals);
    // A collective over such a tile crosses warps through shared memory: refused, and said so.
    let reduce = src.replace("= t.size();", "= cg::reduce(t, 1.0f, cg::plus<float>());");
    let err = analyze::analyze(&reduce, "k.cu", &options)
        .unwrap_err()
        .to_string();
    assert!(err.contains("over a tile of 64 threads"), "{err}");
    assert!(!err.contains("read from memory"), "{err}");
}

#[test]
fn dynamic_shared_bytes_seen_as_packed_structs_are_wide_shared_accesses() {
    // llm.c's layernorm_forward_kernel6: `extern __shared__ char params[]` read and written as
    // `x128*` (a templated struct of 16 bytes), at offsets counted in x128s.
    let packed = "// launch: --grid 16 --block 32,4
template<class ElementType>
struct alignas(16) Packed128 {
    __device__ ElementType& operator[](int index) { return payload[index]; }
    static constexpr const int size = sizeof(int4) / sizeof(ElementType);
    ElementType payload[size];
};
typedef Packed128<float> x128;
template<class ElementType>
__device__ Packed128<ElementType> load128(const ElementType* address) {
    return Packed128<ElementType>{*reinterpret_cast<const int4*>(address)};
}
__global__ void k(float* out, const float* in, int C) {
    extern __shared__ char params[];
    x128* s_in = reinterpret_cast<x128*>(params) + threadIdx.y * C / x128::size;
    const float* row = in + (blockIdx.x * 4 + threadIdx.y) * C;
    for (int c = threadIdx.x * x128::size; c < C; c += 32 * x128::size) {
        s_in[c / x128::size] = load128(row + c);
    }
    __syncthreads();
    float s = 0.0f;
    for (int c = threadIdx.x * x128::size; c < C; c += 32 * x128::size) {
        const x128 v = s_in[c / x128::size];
        s += v[0];
    }
    out[(blockIdx.x * 4 + threadIdx.y) * 32 + threadIdx.x] = s;
}";
    let written = "// launch: --grid 16 --block 32,4
__global__ void k(float* out, const float* in) {
    __shared__ float4 s_in[4 * 64];
    const float* row = in + (blockIdx.x * 4 + threadIdx.y) * 256;
    for (int c = threadIdx.x * 4; c < 256; c += 128) {
        s_in[threadIdx.y * 64 + c / 4] = reinterpret_cast<const float4*>(&row[c])[0];
    }
    __syncthreads();
    float s = 0.0f;
    for (int c = threadIdx.x * 4; c < 256; c += 128) {
        float4 v = s_in[threadIdx.y * 64 + c / 4];
        s += v.x;
    }
    out[(blockIdx.x * 4 + threadIdx.y) * 32 + threadIdx.x] = s;
}";
    let a = run_with(packed, None, &[("C", "256")]).unwrap_or_else(|e| panic!("{e}"));
    let b = run(written);
    assert_eq!(counts(&a), counts(&b));
    // Two 16-byte stores and loads a warp: 4 wavefronts each.
    assert_eq!(a.totals.shared_store_instructions, 16 * 4 * 2);
    assert_eq!(
        a.totals.shared_store_wavefronts,
        4 * a.totals.shared_store_instructions
    );
}

#[test]
fn struct_values_aligned_braced_and_reduced_as_llm_c_softmax_writes_them() {
    // llm.c's softmax_forward_online_kernel2: an `__align__(8)` struct of two floats, built with
    // `{ x[i], 1.0f }`, combined by a __device__ function, reduced over a warp with that function.
    let online = "// launch: --grid 4 --block 256
#include <cooperative_groups.h>
struct __align__(8) SumMax
{
    float maxval;
    float sum;
};
__device__ __forceinline__ SumMax reduce_sum_max_op(SumMax a, SumMax b) {
    bool a_bigger = (a.maxval > b.maxval);
    SumMax bigger_m = a_bigger ? a : b;
    SumMax smaller_m = a_bigger ? b : a;
    SumMax res;
    res.maxval = bigger_m.maxval;
    res.sum = bigger_m.sum + smaller_m.sum * expf(smaller_m.maxval - bigger_m.maxval);
    return res;
}
__global__ void k(float* out, const float* inp, int N, int C) {
    namespace cg = cooperative_groups;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (idx >= N) {
        return;
    }
    const float* x = inp + idx * C;
    SumMax sm_partial;
    sm_partial.maxval = -INFINITY;
    sm_partial.sum = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        sm_partial = reduce_sum_max_op(sm_partial, { x[i], 1.0f });
    }
    SumMax sm_total = cg::reduce(warp, sm_partial, reduce_sum_max_op);
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        __stcs(out + idx * C + i, expf(x[i] - sm_total.maxval) / sm_total.sum);
    }
}";
    let plain = "// launch: --grid 4 --block 256
__global__ void k(float* out, const float* inp) {
    int idx = blockIdx.x * 8 + threadIdx.x / 32;
    float m = 0.0f;
    for (int i = threadIdx.x % 32; i < 1000; i += 32) m += inp[idx * 1000 + i];
    for (int i = threadIdx.x % 32; i < 1000; i += 32) out[idx * 1000 + i] = inp[idx * 1000 + i] * m;
}";
    let a = run_with(online, None, &[("N", "32"), ("C", "1000")]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(counts(&a), counts(&run(plain)));
    assert_eq!(a.totals.global_load_requests, 32 * 2 * 32);
}

#[test]
fn divergence_is_shown_as_the_instructions_issued_with_threads_idle() {
    let interleaved = run(analyze::examples::example("reduce_interleaved").unwrap());
    let sequential = run(analyze::examples::example("reduce_sequential").unwrap());
    let (i, s) = (&interleaved.divergence, &sequential.divergence);
    // `t % (2s) == 0` leaves most threads of every warp idle; sequential addressing retires
    // whole warps, so only the last steps of the tree diverge.
    assert!(i.partial_instructions > 0 && s.partial_instructions > 0);
    let share =
        |d: &analyze::Divergence| d.partial_instructions as f64 / d.warp_instructions as f64;
    assert!(share(i) > 2.0 * share(s), "{i:?} {s:?}");
    assert!(i.active_threads < s.active_threads, "{i:?} {s:?}");
    // The branch's line leads the list.
    assert_eq!(i.lines[0].line, 9, "{:?}", i.lines);
    let text = analyze::render_text(
        analyze::examples::example("reduce_interleaved").unwrap(),
        &interleaved,
    );
    assert!(
        text.contains("warp instructions issued with threads idle"),
        "{text}"
    );
    assert!(text.contains("    line 9: "), "{text}");
    // Full warps that never branch apart: none; a block of 48 threads has a warp of 16, which is
    // not divergence.
    for src in [
        "// launch: --grid 4 --block 64
__global__ void k(const float* in, float* out) {
  out[blockIdx.x * 64 + threadIdx.x] = 2.0f * in[blockIdx.x * 64 + threadIdx.x];
}",
        "// launch: --grid 4 --block 48
__global__ void k(const float* in, float* out) {
  out[blockIdx.x * 48 + threadIdx.x] = 2.0f * in[blockIdx.x * 48 + threadIdx.x];
}",
    ] {
        let r = run(src);
        assert_eq!(r.divergence.partial_instructions, 0, "{src}");
        assert!(r.divergence.warp_instructions > 0);
        assert!(r.divergence.lines.is_empty());
    }
    let r = run("// launch: --grid 4 --block 48
__global__ void k(const float* in, float* out) {
  out[blockIdx.x * 48 + threadIdx.x] = 2.0f * in[blockIdx.x * 48 + threadIdx.x];
}");
    assert!(
        (r.divergence.active_threads - 24.0).abs() < 1e-9,
        "{:?}",
        r.divergence
    );
    // In the JSON, for scripts.
    let json = serde_json::to_value(&interleaved).unwrap();
    assert!(json["divergence"]["partial_instructions"].as_u64().unwrap() > 0);
}
