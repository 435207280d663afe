//! Engine throughput: occupancy evaluations (a what-if plot or heat map makes thousands per keystroke),
//! coalescing and bank analyses, full and counting only (a sweep makes hundreds per keystroke).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use warpdrill::engine::{
    AccessParam, AccessShape, Arch, Granularity, KernelConfig, OccupancyCalculator, Op, SweepRange,
    WarpAccess, bank_conflicts, bank_counts, coalesce, coalesce_counts, coalescing_sweep,
    nvidia_occupancy,
};

fn occupancy_sweep(c: &mut Criterion) {
    let limits = Arch::default_arch().nvidia.expect("sm_90 models occupancy");
    let configs: Vec<KernelConfig> = (1..=32u32)
        .flat_map(|warps| {
            (0..=255u32)
                .step_by(8)
                .map(move |regs| KernelConfig::new(warps * 32, regs))
        })
        .collect();
    let mut group = c.benchmark_group("occupancy");
    group.throughput(Throughput::Elements(configs.len() as u64));
    group.bench_function("what-if sweep (evaluations)", |b| {
        b.iter(|| {
            let mut warps = 0u32;
            for config in &configs {
                if let Ok(o) = nvidia_occupancy(&limits, black_box(config)) {
                    warps += o.active_warps_per_sm;
                }
            }
            black_box(warps)
        })
    });
    let calculator = OccupancyCalculator::new(&limits);
    group.bench_function("what-if sweep, calculator tables (evaluations)", |b| {
        b.iter(|| {
            let mut warps = 0u32;
            for config in &configs {
                if let Ok(o) = calculator.evaluate(black_box(config)) {
                    warps += o.active_warps_per_sm;
                }
            }
            black_box(warps)
        })
    });
    group.finish();
    c.bench_function("occupancy: build the calculator tables", |b| {
        b.iter(|| OccupancyCalculator::new(black_box(&limits)))
    });
}

fn access_analyses(c: &mut Criterion) {
    let arch = Arch::default_arch();
    let patterns: Vec<WarpAccess> = [
        (4, 1, 0),
        (4, 1, 1),
        (4, 2, 0),
        (4, 32, 0),
        (8, 33, 0),
        (16, 1, 0),
        (1, 3, 5),
        (4, 1024, 0),
    ]
    .into_iter()
    .map(|(elem, stride, offset)| WarpAccess::affine(elem, stride, offset))
    .collect();
    let mut group = c.benchmark_group("access");
    group.throughput(Throughput::Elements(patterns.len() as u64));
    group.bench_function("coalescing + banks (analyses)", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for access in &patterns {
                let access = black_box(access);
                if let (Ok(c), Ok(k)) = (
                    coalesce(access, Granularity::Sector),
                    bank_conflicts(access, arch),
                ) {
                    total += c.sectors + k.wavefronts;
                }
            }
            black_box(total)
        })
    });
    group.bench_function("coalescing + banks (counts only)", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for access in &patterns {
                let access = black_box(access);
                if let (Ok(c), Ok(k)) = (
                    coalesce_counts(access, Granularity::Sector),
                    bank_counts(access, arch),
                ) {
                    total += c.sectors + k.wavefronts;
                }
            }
            black_box(total)
        })
    });
    group.finish();

    // One warp at a time: stride 2 from element 1 (32 lanes), stride 3 (a 64-lane wavefront), and
    // a scattered explicit pattern (the bitmap passes).
    let stride2 = WarpAccess::affine(4, 2, 1);
    let wave64 = WarpAccess::affine(4, 3, 1)
        .with_warp_size(64)
        .with_mask(u64::MAX);
    let gfx942 = Arch::parse("gfx942").expect("gfx942 preset");
    let scattered = WarpAccess::explicit(4, (0..32).map(|t| (t * 7919 % 97) * 4).collect());
    // Doubles at stride 5 on the odd lanes only: the lane-by-lane passes.
    let odd_doubles = WarpAccess::affine(8, 5, 0).with_mask(0xaaaa_aaaa);
    for (name, access, on) in [
        ("32 lanes, stride 2", &stride2, arch),
        ("16 of 32 lanes, 8-byte stride 5", &odd_doubles, arch),
        ("64 lanes, stride 3", &wave64, gfx942),
        ("32 lanes, scattered", &scattered, arch),
    ] {
        let mut group = c.benchmark_group(format!("one warp, {name}"));
        group.bench_function("coalescing, full analysis", |b| {
            b.iter(|| coalesce(black_box(access), Granularity::Sector).map(|c| c.sectors))
        });
        group.bench_function("coalescing, counts", |b| {
            b.iter(|| coalesce_counts(black_box(access), Granularity::Sector).map(|c| c.sectors))
        });
        group.bench_function("banks, full analysis", |b| {
            b.iter(|| bank_conflicts(black_box(access), on).map(|k| k.wavefronts))
        });
        group.bench_function("banks, counts", |b| {
            b.iter(|| bank_counts(black_box(access), on).map(|k| k.wavefronts))
        });
        group.finish();
    }
}

fn sweeps(c: &mut Criterion) {
    let shape = AccessShape::default();
    let mut group = c.benchmark_group("sweep");
    group.throughput(Throughput::Elements(256));
    group.bench_function("coalescing, stride 1..256 (points)", |b| {
        b.iter(|| {
            coalescing_sweep(
                black_box(&shape),
                32,
                Granularity::Sector,
                Op::Load,
                AccessParam::Stride,
                SweepRange::new(1, 256, 1),
            )
        })
    });
    group.finish();

    // `warpdrill calc sweep coalescing --vary stride=1..256 --vary offset=0..255 --csv|--json`,
    // written into memory.
    let mut group = c.benchmark_group("calc sweep");
    group.sample_size(10);
    group.throughput(Throughput::Elements(256 * 256));
    for format in ["--csv", "--json"] {
        use clap::Parser;
        let cli = warpdrill::cli::Cli::try_parse_from([
            "warpdrill",
            "calc",
            "sweep",
            "coalescing",
            "--vary",
            "stride=1..256",
            "--vary",
            "offset=0..255",
            format,
        ])
        .expect("a valid command line");
        let Some(warpdrill::cli::Command::Calc(warpdrill::cli::CalcCommand::Sweep(sweep))) =
            cli.command
        else {
            panic!("not a sweep");
        };
        group.bench_function(
            format!("coalescing 256 x 256 grid {format} (points)"),
            |b| {
                b.iter(|| {
                    let mut out = Vec::with_capacity(16 << 20);
                    warpdrill::cli::sweep::run(&sweep, &mut out).map_err(|e| format!("{e:?}"))?;
                    Ok::<usize, String>(black_box(out.len()))
                })
            },
        );
    }
    group.finish();
}

/// `warpdrill calc batch` on 10 000 coalescing requests of varied element sizes, strides and
/// offsets (the lines of a table of exercises), answers written into memory.
fn batch(c: &mut Criterion) {
    let mut input = String::new();
    for i in 0..10_000i64 {
        let elem = [1, 2, 4, 8, 16][(i % 5) as usize];
        input.push_str(&format!(
            "{{\"id\":{i},\"kind\":\"coalescing\",\"elem_bytes\":{elem},\"stride_elems\":{},\"offset_elems\":{}}}\n",
            (i * 7919) % 321 - 64,
            (i * 31) % 64
        ));
    }
    let mut group = c.benchmark_group("calc batch");
    group.throughput(Throughput::Elements(10_000));
    group.bench_function("coalescing requests (lines)", |b| {
        let mut out = Vec::with_capacity(4 << 20);
        b.iter(|| {
            out.clear();
            warpdrill::cli::batch::run(black_box(input.as_bytes()), &mut out)
                .map_err(|e| e.to_string())?;
            Ok::<usize, String>(black_box(out.len()))
        })
    });
    group.finish();
}

criterion_group!(benches, occupancy_sweep, access_analyses, sweeps, batch);
criterion_main!(benches);
