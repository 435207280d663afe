//! The kernel analyser against the H200's whole-kernel counts, the single-warp engine, and bad input.

use proptest::prelude::*;
use std::path::PathBuf;
use warpdrill::analyze::{self, Launch, Options};
use warpdrill::engine::{Granularity, WarpAccess, coalesce};

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference")
}

#[test]
fn every_reference_kernel_matches_the_h200_totals() {
    let mut reader = csv::Reader::from_path(reference_dir().join("h200_kernels_sample.csv"))
        .expect("the reference sample is readable");
    let headers = reader.headers().expect("a header").clone();
    let col = |name: &str| headers.iter().position(|h| h == name).expect(name);
    let mut checked = 0;
    for row in reader.records() {
        let row = row.expect("a row");
        let name = &row[col("kernel")];
        let path = reference_dir().join("kernels").join(format!("{name}.cu"));
        let source = std::fs::read_to_string(&path).expect("the kernel source");
        let launch = Launch {
            grid: analyze::parse_dims(&row[col("grid")]).unwrap(),
            block: analyze::parse_dims(&row[col("block")]).unwrap(),
        };
        // The launch line of the file agrees with the table.
        assert_eq!(
            analyze::launch_line(&source).unwrap(),
            Some(launch),
            "{name}"
        );
        let report = analyze::analyze(&source, name, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let t = report.totals;
        let num = |c: &str| row[col(c)].parse::<u64>().unwrap();
        let got = [
            ("global_load_sectors", t.global_load_sectors),
            ("global_load_requests", t.global_load_requests),
            ("global_store_sectors", t.global_store_sectors),
            ("global_store_requests", t.global_store_requests),
            ("shared_load_wavefronts", t.shared_load_wavefronts),
            ("shared_load_conflicts", t.shared_load_conflicts),
            ("shared_store_wavefronts", t.shared_store_wavefronts),
            ("shared_store_conflicts", t.shared_store_conflicts),
            ("global_load_instructions", t.global_load_instructions),
            ("global_store_instructions", t.global_store_instructions),
        ];
        for (metric, value) in got {
            assert_eq!(value, num(metric), "{name}: {metric}");
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
}

/// Which examples reproduce which reference kernel (same code, same launch).
const SAME_AS_REFERENCE: &[(&str, &str)] = &[
    ("copy", "k_copy"),
    ("strided", "k_stride2"),
    ("aos", "k_aos12"),
    ("transpose_naive", "k_transpose_naive"),
    ("transpose_tiled32", "k_transpose_tiled32"),
    ("matmul_naive", "k_matmul_naive"),
    ("reduce_sequential", "k_reduce_sequential"),
];

#[test]
fn built_in_examples_match_their_reference_kernels() {
    for (example, reference) in SAME_AS_REFERENCE {
        let source = analyze::examples::example(example).expect(example);
        let ours = analyze::analyze(source, example, &Options::default())
            .unwrap_or_else(|e| panic!("{example}: {e}"));
        let path = reference_dir()
            .join("kernels")
            .join(format!("{reference}.cu"));
        let theirs = analyze::analyze(
            &std::fs::read_to_string(path).unwrap(),
            reference,
            &Options::default(),
        )
        .unwrap();
        assert_eq!(ours.totals, theirs.totals, "{example}");
    }
}

#[test]
fn every_built_in_example_analyses() {
    for (name, source) in analyze::examples::EXAMPLES {
        let report = analyze::analyze(source, name, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!report.lines.is_empty(), "{name}");
        assert!(!analyze::render_text(source, &report).is_empty());
    }
}

#[test]
fn teaching_facts_show_in_the_examples() {
    let totals = |name: &str| {
        analyze::analyze(
            analyze::examples::example(name).unwrap(),
            name,
            &Options::default(),
        )
        .unwrap()
        .totals
    };
    assert_eq!(totals("transpose_tiled33").shared_load_conflicts, 0);
    assert!(totals("transpose_tiled32").shared_load_conflicts > 0);
    assert_eq!(totals("reduce_sequential").shared_load_conflicts, 0);
    assert!(totals("reduce_strided_index").shared_load_conflicts > 0);
    let aos = totals("aos");
    let soa = totals("soa");
    assert_eq!(aos.global_load_sectors, 3 * soa.global_load_sectors);
    let col = totals("column_major");
    let row = totals("row_major");
    assert_eq!(col.global_load_sectors, 8 * row.global_load_sectors);
}

fn error_of(source: &str) -> String {
    let options = Options {
        launch: Some(Launch {
            grid: [2, 1, 1],
            block: [64, 1, 1],
        }),
        ..Options::default()
    };
    match analyze::analyze(source, "k.cu", &options) {
        Ok(_) => panic!("expected an error for:\n{source}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn unsupported_constructs_are_reported_with_their_position() {
    let cases: &[(&str, &str)] = &[
        (
            "__global__ void k(float* a, float v) {\n  atomicAdd(v, 1.0f);\n}\n",
            "k.cu:2:13: not supported: the target of `atomicAdd`",
        ),
        (
            "__global__ void k(float** a) {\n  a[0][threadIdx.x] = 0;\n}\n",
            "k.cu:1:24: not supported: pointers to pointers",
        ),
        (
            "__global__ void k(int* a, float* b) {\n  int i = threadIdx.x;\n  b[a[i]] = 1.0f;\n}\n",
            "k.cu:3:3: not supported: the index of `b[a[i]]` depends on a value read from memory",
        ),
        (
            "__global__ void k(float* a) {\n  int i = threadIdx.x;\n  if (a[i] > 0) a[i] = 0;\n}\n",
            "k.cu:3:7: not supported: a condition that depends on a value read from memory",
        ),
        (
            "__global__ void k(float* a, int n) {\n  int i = threadIdx.x;\n  if (i < n) a[i] = 0;\n}\n",
            "k.cu:3:11: not supported: `n` has no known value",
        ),
        (
            "__global__ void k(float* a) {\n  __shared__ float s[32];\n  s[threadIdx.x] = 0;\n}\n",
            "k.cu:3:3: not supported: `s[threadIdx.x]` indexes dimension 1 with 32",
        ),
        (
            "__global__ void k(float* a) {\n  goto end;\n  end: a[0] = 0;\n}\n",
            "k.cu:2:3: not supported:",
        ),
        (
            "struct S { float x, y, z; };\n__global__ void k(S* a) {\n  a[threadIdx.x].w = 0;\n}\n",
            "k.cu:3:18: not supported: the field `w`",
        ),
    ];
    for (source, want) in cases {
        let got = error_of(source);
        assert!(got.starts_with(want), "got `{got}`, want `{want}…`");
    }
    let syntax = error_of("__global__ void k(float* a) {\n  a[0] = ;\n}\n");
    assert!(syntax.starts_with("k.cu:2:"), "{syntax}");
}

#[test]
fn scalar_parameters_take_their_value_from_a_define() {
    let source = "__global__ void k(float* a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] = 0;\n}\n";
    let options = Options {
        launch: Some(Launch {
            grid: [2, 1, 1],
            block: [64, 1, 1],
        }),
        defines: vec![("n".into(), "40".into())],
        ..Options::default()
    };
    let report = analyze::analyze(source, "k.cu", &options).unwrap();
    // 40 active threads: one full warp (4 sectors) and one of 8 lanes (1 sector).
    assert_eq!(report.totals.global_store_requests, 2);
    assert_eq!(report.totals.global_store_sectors, 5);
}

#[derive(Debug, Clone)]
enum Index {
    Affine(i64, i64),
    Modulo(i64, i64),
    Xor(i64),
    Blocked(i64, i64),
}

impl Index {
    fn source(&self) -> String {
        match self {
            Index::Affine(s, o) => format!("i * {s} + {o}"),
            Index::Modulo(s, m) => format!("(i * {s}) % {m}"),
            Index::Xor(x) => format!("i ^ {x}"),
            Index::Blocked(d, s) => format!("(i / {d}) * {s}"),
        }
    }
    fn eval(&self, i: i64) -> i64 {
        match self {
            Index::Affine(s, o) => i * s + o,
            Index::Modulo(s, m) => (i * s) % m,
            Index::Xor(x) => i ^ x,
            Index::Blocked(d, s) => (i / d) * s,
        }
    }
}

fn index_strategy() -> impl Strategy<Value = Index> {
    prop_oneof![
        (-4i64..70, 0i64..100).prop_map(|(s, o)| Index::Affine(s, o)),
        (1i64..70, 1i64..500).prop_map(|(s, m)| Index::Modulo(s, m)),
        (0i64..64).prop_map(Index::Xor),
        (1i64..9, 0i64..40).prop_map(|(d, s)| Index::Blocked(d, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn one_statement_kernels_agree_with_the_single_warp_engine(
        index in index_strategy(),
        ty in prop_oneof![Just(("char", 1u32)), Just(("short", 2)), Just(("float", 4)), Just(("double", 8)), Just(("float4", 16))],
        grid in 1u32..4,
        block in 1u32..200,
    ) {
        let (name, bytes) = ty;
        let source = format!(
            "__global__ void k(const {name}* in, {name}* out) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[{}];\n}}\n",
            index.source()
        );
        let options = Options {
            launch: Some(Launch { grid: [grid, 1, 1], block: [block, 1, 1] }),
            ..Options::default()
        };
        let report = analyze::analyze(&source, "k.cu", &options).unwrap();
        let mut load_sectors = 0u64;
        let mut store_sectors = 0u64;
        let mut warps = 0u64;
        for b in 0..grid {
            for first in (0..block).step_by(32) {
                let lanes = (block - first).min(32);
                let ids = (0..lanes).map(|l| i64::from(b * block + first + l));
                let load: Vec<i64> = ids.clone().map(|i| index.eval(i) * i64::from(bytes)).collect();
                let store: Vec<i64> = ids.map(|i| i * i64::from(bytes)).collect();
                let sectors = |offsets: Vec<i64>| {
                    u64::from(coalesce(&WarpAccess::explicit(bytes, offsets), Granularity::Sector).unwrap().sectors)
                };
                load_sectors += sectors(load);
                store_sectors += sectors(store);
                warps += 1;
            }
        }
        prop_assert_eq!(report.totals.global_load_sectors, load_sectors);
        prop_assert_eq!(report.totals.global_store_sectors, store_sectors);
        prop_assert_eq!(report.totals.global_load_requests, warps);
        prop_assert_eq!(report.totals.global_store_requests, warps);
    }
}

#[test]
fn deep_nesting_and_endless_loops_are_errors_not_crashes() {
    let deep = format!(
        "__global__ void k(float* a) {{\n  a[{}threadIdx.x{}] = 0;\n}}\n",
        "-(".repeat(5000),
        ")".repeat(5000)
    );
    let e = error_of(&deep);
    assert!(e.starts_with("k.cu:"), "{e}");
    let endless = "__global__ void k(float* a) {\n  int j = 0;\n  while (j >= 0) j = 1;\n}\n";
    assert!(error_of(endless).starts_with("k.cu:3:10: not supported: a loop"));
    let unicode = "__global__ void k(floaté* a) {\n  a[0] = 0;\n}\n";
    let _ = error_of(unicode);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_text_gives_a_report_or_an_error(text in "\\PC{0,200}") {
        let options = Options {
            launch: Some(Launch { grid: [1, 1, 1], block: [32, 1, 1] }),
            ..Options::default()
        };
        let _ = analyze::analyze(&text, "k.cu", &options);
        let wrapped = format!("__global__ void k(float* a, int* b) {{\n{text}\n}}\n");
        let _ = analyze::analyze(&wrapped, "k.cu", &options);
    }
}

/// Totals and per-line counts with and without counting alike blocks once.
fn both_ways(source: &str, grid: [u32; 3], block: [u32; 3], defines: &[(&str, String)]) {
    let mut options = Options {
        launch: Some(Launch { grid, block }),
        defines: defines
            .iter()
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect(),
        ..Options::default()
    };
    let quick = analyze::analyze(source, "k.cu", &options);
    options.full_simulation = true;
    let full = analyze::analyze(source, "k.cu", &options);
    let what = format!("grid {grid:?} block {block:?} {defines:?}\n{source}");
    match (quick, full) {
        (Ok(q), Ok(f)) => {
            assert_eq!(q.totals, f.totals, "{what}");
            assert_eq!(q.merged_totals, f.merged_totals, "merged, {what}");
            for (a, b) in q.lines.iter().zip(&f.lines) {
                assert_eq!(a.counts, b.counts, "line {} of {what}", a.line);
            }
        }
        (Err(q), Err(f)) => assert_eq!(q.to_string(), f.to_string(), "{what}"),
        (q, f) => panic!(
            "one way failed: {:?} / {:?}\n{what}",
            q.map(|r| r.totals),
            f.map(|r| r.totals)
        ),
    }
}

#[test]
fn alike_blocks_counted_once_give_the_full_simulation_s_counts_for_every_example() {
    for (name, source) in analyze::examples::EXAMPLES {
        let launch = analyze::launch_line(source).unwrap().unwrap();
        both_ways(source, launch.grid, launch.block, &[]);
        // Smaller and uneven launches, where edges cut blocks and shifts are not whole sectors.
        for (grid, block) in [
            ([3, 2, 1], [16, 16, 1]),
            ([5, 3, 1], [32, 8, 1]),
            ([7, 1, 1], [256, 1, 1]),
            ([9, 2, 1], [40, 3, 1]),
        ] {
            let uses_2d = source.contains("threadIdx.y");
            let block = if uses_2d {
                block
            } else {
                [block[0] * block[1], 1, 1]
            };
            if name.starts_with("reduce") && block[0] != 256 {
                continue;
            }
            both_ways(source, grid, block, &[]);
        }
    }
    let matmul = analyze::examples::example("matmul_naive").unwrap();
    for n in ["17", "40", "48", "100"] {
        both_ways(matmul, [4, 4, 1], [16, 16, 1], &[("N", n.to_string())]);
    }
    let strided = analyze::examples::example("strided").unwrap();
    for s in ["1", "3", "8", "33"] {
        both_ways(
            strided,
            [13, 1, 1],
            [96, 1, 1],
            &[("STRIDE", s.to_string())],
        );
    }
    let misaligned = analyze::examples::example("misaligned").unwrap();
    for o in ["0", "1", "7", "8", "31"] {
        both_ways(
            misaligned,
            [11, 1, 1],
            [40, 1, 1],
            &[("OFFSET", o.to_string())],
        );
    }
}

/// Kernels where blocks differ in ways the shortcut has to notice.
const BLOCK_DEPENDENT: &[&str] = &[
    // Bounds check that cuts the last blocks.
    "__global__ void k(float* a) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < N) a[i] = 0;\n}\n",
    // A 2D bounds check and a column walk.
    "__global__ void k(const float* a, float* b) {\n  int x = blockIdx.x * blockDim.x + threadIdx.x;\n  int y = blockIdx.y * blockDim.y + threadIdx.y;\n  if (x < N && y < N / 2) b[x * N + y] = a[y * N + x];\n}\n",
    // Loop trip count that depends on the block.
    "__global__ void k(float* a) {\n  for (int j = 0; j < blockIdx.x % 4; j++) a[j * 32 + threadIdx.x] = 0;\n}\n",
    // Non-affine use of blockIdx in an address.
    "__global__ void k(float* a) {\n  a[(blockIdx.x * 7) % N + threadIdx.x] = 0;\n  a[(blockIdx.x / 3) * 64 + threadIdx.x * 2] = 1;\n}\n",
    // A shift that is not a whole number of sectors, and one-lane stores.
    "__global__ void k(double* a, short* b) {\n  a[blockIdx.x * 3 + threadIdx.x] = 0;\n  if (threadIdx.x == 0) b[blockIdx.x] = 1;\n}\n",
    // Shared memory indexed with blockIdx.
    "__global__ void k(float* a) {\n  __shared__ float s[512];\n  s[(blockIdx.x * 5 + threadIdx.x) % 512] = 1;\n  s[blockIdx.x + threadIdx.x] = 2;\n  a[threadIdx.x] = s[threadIdx.x * 2];\n}\n",
    // Equality tests, negation and a ?: on block coordinates.
    "__global__ void k(float* a) {\n  int b = blockIdx.x;\n  if (b == 2 || !(b - 1)) a[threadIdx.x] = 0;\n  int j = b != 3 ? -b * 64 + 4096 : 8;\n  a[j + threadIdx.x] = 1;\n}\n",
    // Block-dependent branch only in some lanes, then merged.
    "__global__ void k(float* a) {\n  int j = threadIdx.x;\n  if (threadIdx.x < 16) j = blockIdx.x * 64 + threadIdx.x;\n  a[j] = 0;\n}\n",
    // Wrap-around in 16-bit and unsigned arithmetic.
    "__global__ void k(float* a) {\n  short s = blockIdx.x * 9000;\n  unsigned u = blockIdx.x * 256 - 512;\n  a[s + 40000 + threadIdx.x] = 0;\n  if (u < 100000) a[threadIdx.x] = 1;\n}\n",
    // Float arithmetic on block coordinates.
    "__global__ void k(float* a) {\n  float f = blockIdx.x * 0.5f;\n  if (f < 2) a[threadIdx.x] = 0;\n}\n",
    // Out of bounds in a late block only: the same error either way.
    "__global__ void k(float* a) {\n  __shared__ float s[64];\n  s[blockIdx.x * 8 + threadIdx.x % 8] = 0;\n}\n",
    // Division by zero in one block only.
    "__global__ void k(float* a) {\n  int d = 100 / (blockIdx.x - 3);\n  a[threadIdx.x] = d;\n}\n",
    // Three dimensions of blocks.
    "__global__ void k(float* a) {\n  int i = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;\n  a[i * blockDim.x + threadIdx.x] = 0;\n  if (blockIdx.z > 0 && blockIdx.y < 2) a[i * 3 + threadIdx.x] = 1;\n}\n",
];

#[test]
fn alike_blocks_counted_once_give_the_full_simulation_s_counts_for_block_dependent_kernels() {
    for source in BLOCK_DEPENDENT {
        for (grid, block) in [
            ([1, 1, 1], [32, 1, 1]),
            ([6, 1, 1], [32, 1, 1]),
            ([13, 3, 1], [40, 1, 1]),
            ([5, 4, 3], [64, 2, 1]),
            ([9, 5, 2], [16, 3, 1]),
        ] {
            for n in ["64", "100", "128"] {
                both_ways(source, grid, block, &[("N", n.to_string())]);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn alike_blocks_counted_once_agree_with_the_full_simulation(
        coef in prop::array::uniform3(-70i64..70),
        thread in 1i64..40,
        offset in -5i64..50,
        limit in 0i64..3000,
        ty in prop_oneof![Just("char"), Just("short"), Just("float"), Just("double"), Just("float4")],
        grid in prop::array::uniform3(1u32..6),
        block in (1u32..130, 1u32..4),
    ) {
        let source = format!(
            "__global__ void k(const {ty}* in, {ty}* out) {{\n  int i = blockIdx.x * {} + blockIdx.y * {} + blockIdx.z * {} + threadIdx.x * {thread} + threadIdx.y + {offset} + 4000;\n  if (i < {limit}) out[i] = in[i + 1];\n  out[i * 2] = in[blockIdx.x];\n}}\n",
            coef[0], coef[1], coef[2]
        );
        both_ways(&source, grid, [block.0, block.1, 1], &[]);
    }
}

fn report(source: &str, grid: u32, block: u32) -> analyze::Report {
    let options = Options {
        launch: Some(Launch {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
        }),
        ..Options::default()
    };
    analyze::analyze(source, "k.cu", &options).unwrap_or_else(|e| panic!("{e}\n{source}"))
}

#[test]
fn a_pair_read_in_one_statement_is_also_counted_as_one_wider_access() {
    let pair = "__global__ void k(float* out) {\n  __shared__ float s[512];\n  unsigned t = threadIdx.x;\n  s[t] = 0;\n  __syncthreads();\n  out[t] = s[2 * t] + s[2 * t + 1];\n}\n";
    let wide = "__global__ void k(float* out) {\n  __shared__ float2 s[256];\n  unsigned t = threadIdx.x;\n  __shared__ float z[512];\n  z[t] = 0;\n  __syncthreads();\n  out[t] = s[t].x;\n}\n";
    // Shared memory's alignment is known, so nvcc merges the pair into one `LDS.64`: the
    // headline counts that, and the accesses as written are kept beside it.
    let r = report(pair, 2, 256);
    let merged = r.totals;
    let written = r.written_totals.expect("the pair as written");
    // As written: two 4-byte loads per warp, each a 2-way conflict.
    assert_eq!(written.shared_load_instructions, 16 * 2);
    assert_eq!(written.shared_load_wavefronts, 16 * 2 * 2);
    // Merged: what one float2 load per thread costs.
    let float2 = report(wide, 2, 256).totals;
    assert_eq!(merged.shared_load_instructions, 16);
    assert_eq!(merged.shared_load_wavefronts, float2.shared_load_wavefronts);
    assert_eq!(merged.shared_load_conflicts, 0);
    assert_eq!(r.merged_totals, None, "no merge is left as an if");
    // The global store is the same either way.
    assert_eq!(merged.global_store_sectors, written.global_store_sectors);
    let first = r.lines.iter().find(|a| a.text == "s[2 * t]").unwrap();
    assert!(
        first
            .merge_note
            .as_ref()
            .unwrap()
            .to_string()
            .contains("LDS/STS.64"),
        "{:?}",
        first.merge_note
    );
    let second = r.lines.iter().find(|a| a.text == "s[2 * t + 1]").unwrap();
    assert_eq!(second.counts.shared_load_instructions, 0);
    assert_eq!(second.as_written.unwrap().shared_load_instructions, 16);
    // Text and JSON say which figures are nvcc's merge, and keep the figures as written.
    let text = analyze::render_text(pair, &r);
    assert!(text.contains("as written: lds 16 inst"), "{text}");
    assert!(
        text.contains("as written, without the merges nvcc makes"),
        "{text}"
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["totals"]["shared_load_instructions"], 16);
    assert_eq!(json["written_totals"]["shared_load_instructions"], 32);
}

#[test]
fn misaligned_or_strided_neighbours_are_not_merged() {
    for index in [
        "2 * t + 1] + s[2 * t + 2",
        "3 * t] + s[3 * t + 1",
        "t] + s[t + 32",
    ] {
        let source = format!(
            "__global__ void k(float* out) {{\n  __shared__ float s[1024];\n  unsigned t = threadIdx.x;\n  s[t] = 0;\n  __syncthreads();\n  out[t] = s[{index}];\n}}\n"
        );
        let r = report(&source, 1, 64);
        assert_eq!(r.merged_totals, None, "{source}");
        assert!(r.lines.iter().all(|a| a.merged.is_none()));
    }
}

#[test]
fn neighbouring_stores_and_unrolled_loops_are_merged() {
    let stores = "__global__ void k(float* out) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[2 * i] = 1;\n  out[2 * i + 1] = 2;\n}\n";
    let r = report(stores, 4, 128);
    assert_eq!(r.totals.global_store_requests, 32);
    assert_eq!(r.totals.global_store_sectors, 32 * 8);
    let m = r.merged_totals.expect("a float2-like pair of stores");
    assert_eq!(m.global_store_requests, 16);
    assert_eq!(m.global_store_sectors, 16 * 8);

    let tiled = analyze::examples::example("matmul_tiled").unwrap();
    let r = analyze::analyze(tiled, "matmul_tiled", &Options::default()).unwrap();
    let row = r
        .lines
        .iter()
        .find(|a| a.text.starts_with("As[") && a.counts.shared_load_instructions > 0)
        .unwrap();
    let column = r
        .lines
        .iter()
        .find(|a| a.text.starts_with("Bs[") && a.counts.shared_load_instructions > 0)
        .unwrap();
    // The H200 (ncu, nvcc -O3 -arch=sm_90) counts 655 360 shared load instructions and 786 432
    // wavefronts for this kernel: `As[ty][k]` over the unrolled k loop is one `LDS.128` per four
    // turns, and the headline counts it so.
    assert_eq!(r.totals.shared_load_instructions, 655_360);
    assert_eq!(r.totals.shared_load_wavefronts, 786_432);
    let written = row
        .as_written
        .expect("As[ty][k] as written: one LDS per turn");
    assert_eq!(
        row.counts.shared_load_instructions * 4,
        written.shared_load_instructions
    );
    assert!(row.merged.is_none(), "the merge is in the counts");
    assert!(
        row.merge_note
            .as_ref()
            .unwrap()
            .to_string()
            .contains("unrolls the loop")
    );
    assert!(
        column.merged.is_none() && column.as_written.is_none(),
        "Bs[k][tx] steps a row per iteration"
    );
}

fn warpdrill(args: &[&str]) -> std::process::Output {
    crate::common::warpdrill()
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn the_command_prints_text_or_json_outside_a_terminal() {
    // Piped, as here: the text report, with or without --text.
    for args in [
        &["analyze", "--example", "copy", "--text"][..],
        &["analyze", "--example", "copy"][..],
    ] {
        let out = warpdrill(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("kernel copy  grid 256  block 256"), "{text}");
        assert!(
            text.contains("no wasted sectors and no bank conflicts"),
            "{text}"
        );
    }
    let out = warpdrill(&["analyze", "--example", "copy", "--json", "--text"]);
    assert_eq!(out.status.code(), Some(2), "--json and --text conflict");
    // JSON keeps its fields and adds the merged figures where a merge changes them.
    let out = warpdrill(&["analyze", "--example", "matmul_tiled", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for field in [
        "global_load_sectors",
        "global_load_requests",
        "global_store_sectors",
        "global_store_requests",
        "shared_load_wavefronts",
        "shared_load_conflicts",
        "shared_store_wavefronts",
        "shared_store_conflicts",
    ] {
        assert!(json["totals"][field].is_u64(), "{field}");
        assert!(json["written_totals"][field].is_u64(), "{field}");
        assert!(json["lines"][0]["counts"][field].is_u64(), "{field}");
    }
    assert!(
        json["totals"]["shared_load_instructions"].as_u64()
            < json["written_totals"]["shared_load_instructions"].as_u64()
    );
    let copy = warpdrill(&["analyze", "--example", "copy", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&copy.stdout).unwrap();
    assert!(
        json.get("merged_totals").is_none(),
        "nothing to merge in copy"
    );
}

#[test]
fn the_text_report_shows_the_kernel_and_its_accesses_not_the_host_code_around_it() {
    let source = "#include <cstdio>\nint twice(int x) { return 2 * x; }\n\n__global__ void scale(const float* in, float* out) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[i] * 2.0f;\n}\n\nint main() {\n  printf(\"host code the report leaves out\\n\");\n  return 0;\n}\n";
    let options = Options {
        launch: Some(Launch {
            grid: [1, 1, 1],
            block: [32, 1, 1],
        }),
        ..Options::default()
    };
    let report = analyze::analyze(source, "k.cu", &options).unwrap();
    let text = analyze::render_text(source, &report);
    assert!(text.contains("__global__ void scale"), "{text}");
    assert!(text.contains("out[i] = in[i] * 2.0f;"), "{text}");
    assert!(!text.contains("host code the report leaves out"), "{text}");
    assert!(!text.contains("int twice"), "{text}");
    assert!(text.contains("    …"), "the gaps are marked: {text}");
}

#[test]
fn a_scattered_access_is_worded_by_what_it_does() {
    let source = "__global__ void k(const float* in, float* out, float* both) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[32 * i] = 1;\n  float x = in[32 * i];\n  both[32 * i] += x;\n}\n";
    let r = report(source, 4, 128);
    let why = |prefix: &str| {
        r.lines
            .iter()
            .find(|a| a.text.starts_with(prefix))
            .unwrap_or_else(|| panic!("{prefix}: {:?}", r.lines))
            .why
            .to_string()
    };
    assert!(
        why("out[").ends_with("are not writing neighbouring addresses"),
        "{}",
        why("out[")
    );
    assert!(
        why("in[").ends_with("are not reading neighbouring addresses"),
        "{}",
        why("in[")
    );
    assert!(
        why("both[").ends_with("are not reading and writing neighbouring addresses"),
        "{}",
        why("both[")
    );
}

#[test]
fn the_text_report_shows_the_kernel_with_the_lines_that_introduce_it_and_full_shows_the_whole_file()
{
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("host.cu");
    let host: String = (0..40).map(|k| format!("  host_line_{k}();\n")).collect();
    std::fs::write(
        &file,
        format!(
            "#include <cstdio>\n#define N 1024\n// Scale every element.\n__global__ void scale(float *a) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  a[i] = a[i] * 2.0f;\n}}\n\nint main() {{\n{host}  return 0;\n}}\n"
        ),
    )
    .unwrap();
    let run = |flag: &str| {
        let out = crate::common::warpdrill()
            .args(["analyze", "--grid", "4", "--block", "256", flag])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("--text");
    for shown in [
        "#define N 1024",
        "// Scale every element.",
        "a[i] = a[i] * 2.0f;",
    ] {
        assert!(text.contains(shown), "{shown} missing:\n{text}");
    }
    assert!(
        !text.contains("host_line_") && !text.contains("int main"),
        "{text}"
    );
    let full = run("--full");
    assert!(
        full.contains("#include <cstdio>") && full.contains("host_line_39();"),
        "{full}"
    );
    // The figures are the same either way.
    let totals = |t: &str| t[t.find("\ntotals").unwrap()..].to_string();
    assert_eq!(totals(&text), totals(&full));
}
