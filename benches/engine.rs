//! Engine throughput: occupancy evaluations (a what-if plot makes thousands per keystroke) and
//! coalescing + bank analyses (the explorer makes two per keystroke).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use warpdrill::engine::{
    Arch, Granularity, KernelConfig, WarpAccess, bank_conflicts, coalesce, nvidia_occupancy,
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
    group.finish();
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
    group.finish();
}

criterion_group!(benches, occupancy_sweep, access_analyses);
criterion_main!(benches);
