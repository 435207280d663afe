//! The loads nvcc does not make, and what the kernel reads from memory: the analyser's counts
//! against Nsight Compute's on the H200, and the data-dependent kernels `--assume` opens.

use warpdrill::analyze::{self, Options, assume::Assumption};

const REUSE: &str = include_str!("../fixtures/compiler/reuse.cu");
const UNROLL: &str = include_str!("../fixtures/compiler/unroll.cu");

fn analysed(source: &str, kernel: &str, assume: &[&str]) -> analyze::Result<analyze::Report> {
    let options = Options {
        kernel: Some(kernel.to_string()),
        assume: assume
            .iter()
            .map(|a| Assumption::parse(a, std::path::Path::new(".")).unwrap())
            .collect(),
        ..Options::default()
    };
    analyze::analyze(source, "k.cu", &options)
}

fn totals(r: &analyze::Report) -> [u64; 6] {
    let t = &r.totals;
    [
        t.global_load_requests,
        t.global_load_sectors,
        t.global_store_requests,
        t.global_store_sectors,
        t.shared_load_wavefronts,
        t.shared_store_wavefronts,
    ]
}

#[test]
fn reused_and_forwarded_loads_count_as_the_h200_counts_them() {
    // ncu --clock-control none on an H200, `nvcc -O3 -arch=sm_90`, at the file's launch:
    // load requests, load sectors, store requests, store sectors, shared load and store
    // wavefronts.
    let h200: [(&str, [u64; 6]); 13] = [
        // A store through `a` may write `b[i]`: b[i] is read again.
        ("alias_plain", [1024, 4096, 1024, 4096, 0, 0]),
        // `__restrict__`: it may not, and the second read is the first's value.
        ("alias_restrict", [512, 2048, 1024, 4096, 0, 0]),
        // A load of the element just stored is the stored value.
        ("forward_store", [0, 0, 1024, 4096, 0, 0]),
        // Each `__syncthreads` makes the next read of shared memory a new load.
        ("shared_sync", [512, 2048, 512, 2048, 1024, 512]),
        // A store to `s[t]` may be `s[t ^ 1]` as far as the compiler knows.
        ("shared_maybe", [512, 2048, 512, 2048, 1536, 1536]),
        // `a[i + 1]` is forwarded from its store; `b[i]` is read again after that store.
        ("neighbours", [1024, 4096, 1024, 4608, 0, 0]),
        // `if (b[k] > m) m = b[k];`: one load per turn, the branch predicated.
        ("branch_reuse", [4096, 131072, 512, 2048, 0, 0]),
        // `.x` then `.y` of one `float2` in one basic block: one `LDG.64` (either order).
        ("fields_xy", [512, 4096, 512, 2048, 0, 0]),
        ("fields_yx", [512, 4096, 512, 2048, 0, 0]),
        // A store through another pointer between them: two 4-byte loads.
        ("fields_store_between", [1024, 8192, 1024, 4096, 0, 0]),
        // A branch that only computes is a select: still one basic block, one `LDG.64`.
        ("fields_select_between", [512, 4096, 512, 2048, 0, 0]),
        // A branch that loads splits the block: two loads, and the branch's own.
        ("fields_branch_between", [1536, 10240, 512, 2048, 0, 0]),
        // Four fields of a `float4`: one `LDG.128`.
        ("fields_quad", [512, 8192, 512, 2048, 0, 0]),
    ];
    for (kernel, want) in h200 {
        let r = analysed(REUSE, kernel, &[]).unwrap_or_else(|e| panic!("{kernel}: {e}"));
        assert_eq!(totals(&r), want, "{kernel}");
    }
    // The text report says which line reuses which.
    let r = analysed(REUSE, "forward_store", &[]).unwrap();
    assert_eq!(r.reused.len(), 1);
    assert!(r.reused[0].stored);
    let text = analyze::render_text(REUSE, &r);
    assert!(
        text.contains("no load: line 17's store forwarded"),
        "{text}"
    );
}

#[test]
fn a_volatile_or_fenced_element_is_read_again() {
    let k = |body: &str| {
        format!(
            "// launch: --grid 1 --block 32
__global__ void k(float* a, float* out) {{
  __shared__ float s[32];
  {body}
}}"
        )
    };
    let reads = |body: &str| {
        let r = analysed(&k(body), "k", &[]).unwrap_or_else(|e| panic!("{e}"));
        r.totals.shared_load_instructions
    };
    let base = "s[threadIdx.x] = a[threadIdx.x]; __syncthreads();";
    assert_eq!(
        reads(&format!(
            "{base} float x = s[threadIdx.x ^ 1]; float y = s[threadIdx.x ^ 1]; out[threadIdx.x] = x + y;"
        )),
        1
    );
    assert_eq!(
        reads(&format!(
            "{base} float x = s[threadIdx.x ^ 1]; __syncwarp(); float y = s[threadIdx.x ^ 1]; out[threadIdx.x] = x + y;"
        )),
        2
    );
    assert_eq!(
        reads(&format!(
            "{base} float x = s[threadIdx.x ^ 1]; atomicAdd(&out[0], 1.0f); float y = s[threadIdx.x ^ 1]; out[threadIdx.x] = x + y;"
        )),
        2
    );
    assert_eq!(
        reads(&format!(
            "{base} volatile float* v = s; float x = v[threadIdx.x ^ 1]; float y = v[threadIdx.x ^ 1]; out[threadIdx.x] = x + y;"
        )),
        2
    );
    // A loop whose body stores to the array reads it again on every turn.
    assert_eq!(
        reads(&format!(
            "{base} float x = s[threadIdx.x ^ 1]; for (int j = 0; j < 4; j++) {{ x += s[threadIdx.x ^ 1]; s[threadIdx.x] = x; }} out[threadIdx.x] = x;"
        )),
        5
    );
    // Without a store in it, the value read before the loop is kept.
    assert_eq!(
        reads(&format!(
            "{base} float x = s[threadIdx.x ^ 1]; for (int j = 0; j < 4; j++) {{ x += s[threadIdx.x ^ 1]; }} out[threadIdx.x] = x;"
        )),
        1
    );
}

#[test]
fn a_block_sync_of_cooperative_groups_is_a_barrier() {
    let src = "// launch: --grid 1 --block 64
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const float* a, float* out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[64];
  s[threadIdx.x] = a[threadIdx.x];
  block.sync();
  float x = s[63 - threadIdx.x];
  cg::sync(block);
  out[threadIdx.x] = x + s[63 - threadIdx.x];
}";
    let r = analysed(src, "k", &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        r.totals.shared_load_instructions, 4,
        "read again after each sync"
    );
    assert_eq!(r.profile.block_barriers, 2);
}

#[test]
fn a_branch_on_data_that_decides_an_access_names_the_array_and_the_way_out() {
    let src = "// launch: --grid 4 --block 256
__global__ void k(const float* x, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  if (v > 0.0f) out[i] = v;
}";
    let e = analysed(src, "k", &[]).unwrap_err().to_string();
    assert!(e.starts_with("k.cu:5:"), "{e}");
    assert!(e.contains("from `x`") && e.contains("--assume x="), "{e}");
    // With values for x, it is followed: every value positive stores everywhere, none nowhere.
    let all = analysed(src, "k", &["x=1"]).unwrap();
    assert_eq!(all.totals.global_store_requests, 32);
    let none = analysed(src, "k", &["x=-1"]).unwrap();
    assert_eq!(none.totals.global_store_requests, 0);
    // Uniform over [-1, 1): about half the lanes store, and most warps have some lane that does.
    let half = analysed(src, "k", &["x=-1..1"]).unwrap();
    assert_eq!(half.totals.global_store_requests, 32);
    let stored = (half.totals.global_bytes_requested - 4 * 1024) / 4;
    assert!(
        (400..624).contains(&stored),
        "{stored} of 1024 lanes stored"
    );
    assert_eq!(half.assumed.len(), 1);
    let text = analyze::render_text(src, &half);
    assert!(
        text.contains("assumed (--assume)") && text.contains("x: values uniform in [-1, 1)"),
        "{text}"
    );
    // An assumption for an array the kernel does not read is refused by name.
    let e = analysed(src, "k", &["y=1"]).unwrap_err().to_string();
    assert!(e.contains("`y`") && e.contains("x, out"), "{e}");
}

#[test]
fn an_index_read_from_memory_is_followed_with_the_values_given() {
    // A gather: rows picked by token ids (llm.c's encoder).
    let src = "// launch: --grid 8 --block 256
__global__ void k(const int* ids, const float* table, float* out, int C) {
  int row = blockIdx.x;
  int id = ids[row];
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    out[row * C + c] = table[id * C + c];
  }
}";
    let options = |assume: &[&str]| Options {
        defines: vec![("C".into(), "768".into())],
        assume: assume
            .iter()
            .map(|a| Assumption::parse(a, std::path::Path::new(".")).unwrap())
            .collect(),
        ..Options::default()
    };
    let e = analyze::analyze(src, "k.cu", &options(&[]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`table[id * C + c]`") && e.contains("from `ids`"),
        "{e}"
    );
    // Row starts at 768·4 = 3072 bytes, a multiple of 32: each warp reads 4 whole sectors of the
    // table whatever the id (and one of `ids`); the same for every choice of ids.
    for a in ["ids=0..50257", "ids=7", "ids=0..2"] {
        let r = analyze::analyze(src, "k.cu", &options(&[a])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.totals.global_load_sectors, 64 + 8 * 24 * 4, "{a}");
    }
    // A file of ids: element k holds the file's k-th value.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ids.txt"), "1 2 3 4 5 6 7 8\n").unwrap();
    let a = Assumption::parse("ids=@ids.txt", dir.path()).unwrap();
    let r = analyze::analyze(
        src,
        "k.cu",
        &Options {
            assume: vec![a],
            ..options(&[])
        },
    )
    .unwrap();
    assert_eq!(r.assumed[0].values, "the 8 values of ids.txt, repeated");
}

#[test]
fn a_vector_read_from_memory_gives_its_fields_the_values_given() {
    // cuda-samples' histogram64: bins picked by the bytes of a `uint4` read whole.
    let vector = "// launch: --grid 4 --block 64
__global__ void k(const uint4* d) {
  __shared__ unsigned char s[64 * 64];
  uint4 v = d[blockIdx.x * blockDim.x + threadIdx.x];
  s[(v.x & 63) * 64 + threadIdx.x]++;
  s[((v.y >> 8) & 63) * 64 + threadIdx.x]++;
  s[(v.w & 63) * 64 + threadIdx.x]++;
}";
    // The same, reading the array as its words: field k of element i is word 4·i + k.
    let words = "// launch: --grid 4 --block 64
__global__ void k(const unsigned* d) {
  __shared__ unsigned char s[64 * 64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = d[4 * i], y = d[4 * i + 1], w = d[4 * i + 3];
  s[(x & 63) * 64 + threadIdx.x]++;
  s[((y >> 8) & 63) * 64 + threadIdx.x]++;
  s[(w & 63) * 64 + threadIdx.x]++;
}";
    let e = analysed(vector, "k", &[]).unwrap_err().to_string();
    assert!(e.contains("from `d`"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let values: Vec<String> = (0..97u64)
        .map(|k| (k * 2_654_435_761 % 65_521).to_string())
        .collect();
    std::fs::write(dir.path().join("d.txt"), values.join(" ")).unwrap();
    for a in ["d=0..4294967295", "d=@d.txt", "d=5"] {
        let run = |src: &str| {
            let options = Options {
                kernel: Some("k".into()),
                assume: vec![Assumption::parse(a, dir.path()).unwrap()],
                ..Options::default()
            };
            analyze::analyze(src, "k.cu", &options).unwrap_or_else(|e| panic!("{a}: {e}"))
        };
        let (v, w) = (run(vector), run(words));
        let shared = |r: &analyze::Report| {
            let t = &r.totals;
            [
                t.shared_load_instructions,
                t.shared_load_wavefronts,
                t.shared_store_instructions,
                t.shared_store_wavefronts,
            ]
        };
        assert_eq!(shared(&v), shared(&w), "{a}");
        assert!(v.totals.shared_load_instructions > 0, "{a}");
    }
    // One value everywhere: every lane of a warp on one row of bins, no conflict.
    let options = Options {
        kernel: Some("k".into()),
        assume: vec![Assumption::parse("d=5", dir.path()).unwrap()],
        ..Options::default()
    };
    let r = analyze::analyze(vector, "k.cu", &options).unwrap();
    assert_eq!(
        r.totals.shared_load_wavefronts, r.totals.shared_load_instructions,
        "{:?}",
        r.totals
    );
}

#[test]
fn a_loop_nvcc_unrolls_reads_each_element_once() {
    // A 1-D stencil: each thread reads s[t + i + j] for 4 outputs and 3 taps; unrolled, the
    // 12 reads touch 6 elements (t + 0 … t + 5), and nvcc loads each once.
    let k = |pragma: &str, taps: &str| {
        format!(
            "// launch: --grid 1 --block 32 -D taps=3
__global__ void k(const float* a, float* out, int taps) {{
  __shared__ float s[64];
  s[threadIdx.x] = a[threadIdx.x];
  s[threadIdx.x + 32] = a[threadIdx.x + 32];
  __syncthreads();
  {pragma}
  for (int i = 0; i < 4; i++) {{
    float sum = 0.0f;
    {pragma}
    for (int j = 0; j < {taps}; j++) {{
      sum += s[threadIdx.x + i + j];
    }}
    out[threadIdx.x * 4 + i] = sum;
  }}
}}"
        )
    };
    let reads = |src: &str| {
        analysed(src, "k", &[])
            .unwrap_or_else(|e| panic!("{e}"))
            .totals
            .shared_load_instructions
    };
    assert_eq!(reads(&k("#pragma unroll", "3")), 6);
    // Without the pragma the loops are small enough for nvcc to unroll them anyway (the H200's
    // `stencil_plain` below).
    assert_eq!(reads(&k("", "3")), 6);
    // A trip count known only when it runs: the inner loop stays, every read is made.
    assert_eq!(reads(&k("#pragma unroll", "taps")), 12);
}

#[test]
fn unrolled_turns_reuse_what_earlier_turns_loaded_as_on_the_h200() {
    // ncu on the H200, as above: load requests and sectors, store requests and sectors, shared
    // load and store wavefronts.
    let h200: [(&str, [u64; 6]); 5] = [
        // 4 × 3 reads of s[t + i + j] touch 6 elements: 6 wavefronts a warp.
        ("stencil_unrolled", [128, 512, 256, 4096, 384, 128]),
        // The same loops without `#pragma unroll`: small, so nvcc unrolls them anyway.
        ("stencil_plain", [128, 512, 256, 4096, 384, 128]),
        // The inner trip count is a parameter: that loop stays, every read is made.
        ("stencil_runtime", [128, 512, 256, 4096, 768, 128]),
        // From global memory, with a store each outer turn through another pointer: the
        // elements are read again after it.
        ("stencil_global", [768, 3776, 256, 4096, 0, 0]),
        // `__restrict__`: the store cannot write them; 6 loads a warp.
        ("stencil_global_restrict", [384, 1856, 256, 4096, 0, 0]),
    ];
    for (kernel, want) in h200 {
        let r = analysed(UNROLL, kernel, &[]).unwrap_or_else(|e| panic!("{kernel}: {e}"));
        assert_eq!(totals(&r), want, "{kernel}");
    }
}

#[test]
fn a_reference_to_an_array_element_reads_and_writes_that_element() {
    // sortingNetworks' `Comparator(uint& keyA, …)` given `s_key[pos]`: the same accesses as the
    // swap written in the kernel.
    let by_ref = "// launch: --grid 2 --block 32
__device__ void order(float& a, float& b) {
  if (a > b) {
    float t = a;
    a = b;
    b = t;
  }
}
__global__ void k(const float* x, float* y) {
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  s[threadIdx.x + 32] = x[threadIdx.x + 32];
  __syncthreads();
  order(s[2 * threadIdx.x], s[2 * threadIdx.x + 1]);
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x];
}";
    let inline = "// launch: --grid 2 --block 32
__global__ void k(const float* x, float* y) {
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  s[threadIdx.x + 32] = x[threadIdx.x + 32];
  __syncthreads();
  float a = s[2 * threadIdx.x];
  float b = s[2 * threadIdx.x + 1];
  if (a > b) {
    s[2 * threadIdx.x] = b;
    s[2 * threadIdx.x + 1] = a;
  }
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x];
}";
    let e = analysed(by_ref, "k", &[]).unwrap_err().to_string();
    assert!(e.contains("from `s`") && e.contains("--assume s="), "{e}");
    for values in ["s=0..1", "s=1", "s=-5..5"] {
        let a = analysed(by_ref, "k", &[values]).unwrap_or_else(|e| panic!("{e}"));
        let b = analysed(inline, "k", &[values]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(totals(&a), totals(&b), "{values}");
    }
    // Some pairs swap, some do not: the stores run on part of the lanes.
    let some = analysed(inline, "k", &["s=0..1"]).unwrap();
    assert!(
        some.totals.shared_store_instructions > 2 * 2,
        "{:?}",
        some.totals
    );
    let none = analysed(inline, "k", &["s=1"]).unwrap();
    assert_eq!(none.totals.shared_store_instructions, 2 * 2);
}
