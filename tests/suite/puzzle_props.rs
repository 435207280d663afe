//! The interpreter against plain Rust: every built-in puzzle's reference kernel, run by
//! `analyze::exec` on random inputs of random sizes, gives what a straightforward Rust loop gives.

use proptest::prelude::*;
use std::collections::BTreeMap;
use warpdrill::analyze::exec::{self, Buffers, Limits};
use warpdrill::analyze::{self, Options};
use warpdrill::i18n::Lang;
use warpdrill::puzzle::{self, check};

type Arrays = BTreeMap<String, Vec<f32>>;

/// The reference kernel of `id` run by the interpreter at `size` on its generated inputs: the
/// inputs, and the outputs it wrote.
fn interpret(id: &str, size: &BTreeMap<String, i64>, seed: u64) -> (Arrays, Arrays) {
    let mut p = puzzle::find(id, Lang::En).expect("built in");
    // Fresh inputs for each case: the generators' seeds moved by the case's.
    for b in &mut p.buffers {
        b.init = match b.init {
            puzzle::Init::Random(s) => puzzle::Init::Random(s ^ seed),
            puzzle::Init::SmallInts(s) => puzzle::Init::SmallInts(s ^ seed),
            other => other,
        };
    }
    let launch = check::launch_for(&p, &p.reference, size).expect("launch");
    let options = Options {
        kernel: Some(p.kernel.clone()),
        launch: Some(launch),
        defines: check::defines(size),
        full_simulation: false,
        headers: Vec::new(),
        assume: Vec::new(),
    };
    let (kernel, launch) = analyze::prepare(&p.reference, "ref.cu", &options).expect("parses");
    let mut buffers: Buffers = check::inputs(&p, size).expect("inputs");
    let inputs: Arrays = p
        .buffers
        .iter()
        .map(|b| (b.name.clone(), buffers.f32s(&b.name).expect("there")))
        .collect();
    let report = exec::run(&kernel, &launch, &mut buffers, &Limits::default()).expect("runs");
    assert!(report.races.is_empty(), "{id}: {:?}", report.races);
    let outputs: Arrays = p
        .buffers
        .iter()
        .filter(|b| b.output)
        .map(|b| (b.name.clone(), buffers.f32s(&b.name).expect("there")))
        .collect();
    (inputs, outputs)
}

fn segment_sums(values: impl Iterator<Item = f32>, n: usize, len: usize) -> Vec<f32> {
    let values: Vec<f32> = values.collect();
    (0..n.div_ceil(len))
        .map(|k| values[k * len..((k + 1) * len).min(n)].iter().sum())
        .collect()
}

/// What plain Rust computes for puzzle `id`.
fn expected(id: &str, size: &BTreeMap<String, i64>, i: &Arrays) -> Arrays {
    let n = size.get("n").copied().unwrap_or(0) as usize;
    let rows = size.get("rows").copied().unwrap_or(0) as usize;
    let cols = size.get("cols").copied().unwrap_or(0) as usize;
    let a = |name: &str| i[name].clone();
    let one = |name: &str, v: Vec<f32>| BTreeMap::from([(name.to_string(), v)]);
    match id {
        "map" => one("out", a("in").iter().map(|x| 2.0 * x + 1.0).collect()),
        "zip" => one(
            "out",
            a("a").iter().zip(a("b")).map(|(x, y)| x + y).collect(),
        ),
        "guard" => one("out", a("in").iter().map(|x| x * x).collect()),
        "map2d" => one("out", a("in").iter().map(|x| x + 1.0).collect()),
        "broadcast" => one(
            "out",
            (0..rows * cols)
                .map(|k| a("a")[k % cols] * a("b")[k / cols])
                .collect(),
        ),
        "stencil" => {
            let x = a("in");
            let at = |k: isize| {
                if k < 0 || k as usize >= n {
                    0.0
                } else {
                    x[k as usize]
                }
            };
            one(
                "out",
                (0..n as isize)
                    .map(|k| at(k - 1) + at(k) + at(k + 1))
                    .collect(),
            )
        }
        "dot" => one(
            "partial",
            segment_sums(a("a").iter().zip(a("b")).map(|(x, y)| x * y), n, 256),
        ),
        "prefix-sum" => {
            let x = a("in");
            let mut out = vec![0.0; n];
            for k in 0..n {
                out[k] = x[k] + if k % 256 == 0 { 0.0 } else { out[k - 1] };
            }
            one("out", out)
        }
        "axis-sum" => {
            let x = a("in");
            one(
                "out",
                (0..cols)
                    .map(|c| (0..rows).map(|r| x[r * cols + c]).sum())
                    .collect(),
            )
        }
        "pool" => {
            let x = a("in");
            let m = n / 2;
            one(
                "out",
                (0..m * m)
                    .map(|k| {
                        let (r, c) = (k / m, k % m);
                        let t = 2 * r * n + 2 * c;
                        0.25 * (x[t] + x[t + 1] + x[t + n] + x[t + n + 1])
                    })
                    .collect(),
            )
        }
        "transpose" => {
            let x = a("in");
            one("out", (0..n * n).map(|k| x[(k % n) * n + k / n]).collect())
        }
        "reduce" => one("partial", segment_sums(a("in").into_iter(), n, 512)),
        "matmul" => {
            let (x, y) = (a("A"), a("B"));
            one(
                "C",
                (0..n * n)
                    .map(|k| (0..n).map(|j| x[(k / n) * n + j] * y[j * n + k % n]).sum())
                    .collect(),
            )
        }
        "aos-to-soa" => {
            let x = a("aos");
            let field = |f: usize| (0..n).map(|k| x[3 * k + f]).collect();
            BTreeMap::from([
                ("x".to_string(), field(0)),
                ("y".to_string(), field(1)),
                ("z".to_string(), field(2)),
            ])
        }
        "float4-copy" => one("out", a("in")),
        "occupancy" => one("out", a("in").iter().map(|x| 3.0 * x).collect()),
        other => panic!("no Rust reference for `{other}`"),
    }
}

/// A random size for `id`: its parameters, small (the interpreter runs every thread).
fn size_for(id: &str, x: i64, y: i64) -> BTreeMap<String, i64> {
    let s = |pairs: &[(&str, i64)]| pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    match id {
        "map2d" | "broadcast" => s(&[("rows", y), ("cols", x)]),
        "axis-sum" => s(&[("rows", y), ("cols", x * 4)]),
        "pool" => s(&[("n", 2 * y)]),
        "transpose" => s(&[("n", y + x % 30)]),
        "matmul" => s(&[("n", y)]),
        _ => s(&[("n", x * 13 + y)]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_reference_kernel_equals_plain_rust(x in 1i64..=60, y in 1i64..=33, seed in any::<u64>()) {
        let (puzzles, _) = puzzle::builtin();
        for p in &puzzles {
            let size = size_for(&p.id, x, y);
            let (inputs, outputs) = interpret(&p.id, &size, seed);
            let want = expected(&p.id, &size, &inputs);
            for (name, got) in &outputs {
                let want = &want[name];
                prop_assert_eq!(got.len(), want.len(), "{} {}", p.id, name);
                for (k, (g, w)) in got.iter().zip(want).enumerate() {
                    // Sums added in another order differ by rounding; elementwise maps match exactly.
                    let tolerance = 1e-4 * w.abs().max(1.0);
                    prop_assert!(
                        (g - w).abs() <= tolerance,
                        "{} at {:?}: {}[{}] = {} from the interpreter, {} from Rust",
                        p.id, size, name, k, g, w
                    );
                }
            }
        }
    }
}
