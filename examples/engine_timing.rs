//! Nanoseconds of CPU time per engine call, measured from the thread's own CPU clock
//! (`/proc/thread-self/stat`, 10 ms ticks, each call repeated for about a second of CPU): unlike wall
//! time, this stays meaningful on a machine shared with other work. Linux only.
//!
//! `cargo run --release --example engine_timing`

use std::hint::black_box;
use warpdrill::engine::{
    AccessParam, AccessShape, Arch, Granularity, KernelConfig, OccupancyCalculator, Op, SweepRange,
    WarpAccess, bank_conflicts, bank_counts, coalesce, coalesce_counts, coalescing_sweep,
    nvidia_occupancy,
};

/// One engine call, returning a number so that it is not optimised away.
type Call<'a> = Box<dyn FnMut() -> u32 + 'a>;

/// The thread's user + system CPU time so far, in clock ticks (usually 10 ms).
fn cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let user: u64 = fields.get(11)?.parse().ok()?;
    let system: u64 = fields.get(12)?.parse().ok()?;
    Some(user + system)
}

/// CPU nanoseconds per call of `f`, over at least 100 ticks of CPU time.
fn per_call(mut f: impl FnMut() -> u32) -> Option<f64> {
    let start = cpu_ticks()?;
    let mut calls: u64 = 0;
    let mut sink = 0u32;
    loop {
        for _ in 0..10_000 {
            sink = sink.wrapping_add(f());
        }
        calls += 10_000;
        let spent = cpu_ticks()? - start;
        if spent >= 100 {
            black_box(sink);
            return Some(spent as f64 * 1e7 / calls as f64);
        }
    }
}

fn main() {
    let hopper = Arch::default_arch();
    let gfx942 = Arch::parse("gfx942").expect("gfx942 preset");
    let stride2 = WarpAccess::affine(4, 2, 1);
    let wave64 = WarpAccess::affine(4, 3, 1)
        .with_warp_size(64)
        .with_mask(u64::MAX);
    let scattered = WarpAccess::explicit(4, (0..32).map(|t| (t * 7919 % 97) * 4).collect());
    let limits = hopper.nvidia.expect("sm_90 models occupancy");
    let calculator = OccupancyCalculator::new(&limits);
    let config = KernelConfig::new(256, 48);
    let shape = AccessShape::default();
    let sector = Granularity::Sector;
    let rows: Vec<(&str, Call)> = vec![
        (
            "coalescing counts, 32 lanes, stride 2",
            Box::new(|| coalesce_counts(black_box(&stride2), sector).map_or(0, |c| c.sectors)),
        ),
        (
            "coalescing full analysis, 32 lanes, stride 2",
            Box::new(|| coalesce(black_box(&stride2), sector).map_or(0, |c| c.sectors)),
        ),
        (
            "bank counts, 32 lanes, stride 2",
            Box::new(|| bank_counts(black_box(&stride2), hopper).map_or(0, |b| b.wavefronts)),
        ),
        (
            "bank full analysis, 32 lanes, stride 2",
            Box::new(|| bank_conflicts(black_box(&stride2), hopper).map_or(0, |b| b.wavefronts)),
        ),
        (
            "coalescing counts, 64 lanes, stride 3",
            Box::new(|| coalesce_counts(black_box(&wave64), sector).map_or(0, |c| c.sectors)),
        ),
        (
            "bank counts, 64 lanes, stride 3",
            Box::new(|| bank_counts(black_box(&wave64), gfx942).map_or(0, |b| b.wavefronts)),
        ),
        (
            "coalescing counts, 32 lanes, scattered",
            Box::new(|| coalesce_counts(black_box(&scattered), sector).map_or(0, |c| c.sectors)),
        ),
        (
            "bank counts, 32 lanes, scattered",
            Box::new(|| bank_counts(black_box(&scattered), hopper).map_or(0, |b| b.wavefronts)),
        ),
        (
            "occupancy (nvidia_occupancy)",
            Box::new(|| {
                nvidia_occupancy(&limits, black_box(&config)).map_or(0, |o| o.active_blocks_per_sm)
            }),
        ),
        (
            "occupancy (calculator tables)",
            Box::new(|| {
                calculator
                    .evaluate(black_box(&config))
                    .map_or(0, |o| o.active_blocks_per_sm)
            }),
        ),
        (
            "coalescing sweep, stride 1..256 (whole sweep)",
            Box::new(|| {
                coalescing_sweep(
                    black_box(&shape),
                    32,
                    sector,
                    Op::Load,
                    AccessParam::Stride,
                    SweepRange::new(1, 256, 1),
                )
                .len() as u32
            }),
        ),
    ];
    for (name, f) in rows {
        match per_call(f) {
            Some(ns) => println!("{ns:>10.1} ns  {name}"),
            None => println!("       n/a     {name} (no /proc/thread-self/stat)"),
        }
    }
}
