//! Runs one engine call many times, for instruction counts that do not depend on the machine's
//! load: `valgrind --tool=callgrind target/release/examples/instructions coalesce_counts 100000`,
//! then the total instructions (the `summary:` line of `callgrind_annotate`) divided by the calls.
//! With `0` calls it measures only the set-up, to subtract.
//!
//! `cargo build --release --example instructions`

use std::hint::black_box;
use warpdrill::engine::{
    Arch, Granularity, KernelConfig, OccupancyCalculator, WarpAccess, bank_counts, coalesce_counts,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let call = args.next().unwrap_or_default();
    let n: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let hopper = Arch::default_arch();
    let gfx942 = Arch::parse("gfx942").expect("gfx942 preset");
    let stride2 = WarpAccess::affine(4, 2, 1);
    let wave64 = WarpAccess::affine(4, 3, 1)
        .with_warp_size(64)
        .with_mask(u64::MAX);
    let mut sink = 0u64;
    match call.as_str() {
        "coalesce_counts" => {
            for _ in 0..n {
                sink += coalesce_counts(black_box(&stride2), Granularity::Sector)
                    .map_or(0, |c| u64::from(c.sectors));
            }
        }
        "bank_counts" => {
            for _ in 0..n {
                sink +=
                    bank_counts(black_box(&stride2), hopper).map_or(0, |k| u64::from(k.wavefronts));
            }
        }
        "bank_counts_64" => {
            for _ in 0..n {
                sink +=
                    bank_counts(black_box(&wave64), gfx942).map_or(0, |k| u64::from(k.wavefronts));
            }
        }
        "coalesce_counts_64" => {
            for _ in 0..n {
                sink += coalesce_counts(black_box(&wave64), Granularity::Sector)
                    .map_or(0, |c| u64::from(c.sectors));
            }
        }
        "occupancy" => {
            let limits = hopper.nvidia.expect("sm_90 models occupancy");
            let calculator = OccupancyCalculator::new(&limits);
            for i in 0..n as u32 {
                let config = black_box(KernelConfig {
                    block_size: 32 * (1 + (i / 240) % 32),
                    regs_per_thread: 16 + i % 240,
                    static_smem: 0,
                    dynamic_smem: (i % 7) * 4096,
                    carveout: warpdrill::engine::Carveout::Default,
                });
                sink += calculator
                    .evaluate(&config)
                    .map_or(0, |o| u64::from(o.active_blocks_per_sm));
            }
        }
        other => {
            eprintln!(
                "usage: instructions coalesce_counts|coalesce_counts_64|bank_counts|bank_counts_64|occupancy N (not `{other}`)"
            );
            std::process::exit(2);
        }
    }
    println!("{sink}");
}
