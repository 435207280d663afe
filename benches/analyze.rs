//! How long the analyser takes over whole launches.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use warpdrill::analyze::{self, Launch, Options, examples};

fn matmul_naive(c: &mut Criterion) {
    let source = examples::example("matmul_naive").expect("the example");
    let mut group = c.benchmark_group("analyze");
    group.sample_size(10);
    for n in [256u32, 1024] {
        let options = Options {
            launch: Some(Launch {
                grid: [n / 16, n / 16, 1],
                block: [16, 16, 1],
            }),
            defines: vec![("N".into(), n.to_string())],
            ..Options::default()
        };
        group.bench_function(format!("matmul_naive N={n}"), |b| {
            b.iter(|| analyze::analyze(black_box(source), "matmul_naive.cu", &options).unwrap())
        });
    }
    group.finish();
}

/// A puzzle check as `puzzle check` runs it: the correctness runs at every size, the reference's
/// and the learner's, then the performance run. Each built-in puzzle's own reference is handed in.
fn puzzle_checks(c: &mut Criterion) {
    use warpdrill::i18n::Lang;
    use warpdrill::puzzle::{self, check};
    let mut group = c.benchmark_group("puzzle check");
    group.sample_size(10);
    for id in ["transpose", "reduce", "matmul", "prefix-sum"] {
        let p = puzzle::find(id, Lang::En).expect("built in");
        group.bench_function(id, |b| {
            b.iter(|| check::check(&p, black_box(&p.reference), None).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, matmul_naive, puzzle_checks);
criterion_main!(benches);
