//! The occupancy loop of `../shared/bench/occupancy-vs-nvidia`: the same 20 000 000 evaluations as
//! NVIDIA's `cuda_occupancy.h` harness, through warpdrill's engine, printed in the same line format.
//!
//! The per-architecture tables ([`OccupancyCalculator::new`]) are built once, as a what-if sweep
//! builds them once; every evaluation's configuration goes through `black_box`, so nothing about it
//! is known to the compiler.

use std::hint::black_box;
use std::time::Instant;
use warpdrill::engine::{Arch, Carveout, KernelConfig, OccupancyCalculator};

fn main() {
    let Some(limits) = Arch::parse("sm_90").ok().and_then(|arch| arch.nvidia) else {
        eprintln!("sm_90 has no occupancy figures");
        std::process::exit(2);
    };
    let calculator = OccupancyCalculator::new(&limits);
    const N: u32 = 20_000_000;
    let start = Instant::now();
    let mut checksum: u64 = 0;
    for i in 0..N {
        let config = black_box(KernelConfig {
            block_size: 32 * (1 + (i / 240) % 32),
            regs_per_thread: 16 + i % 240,
            static_smem: 0,
            dynamic_smem: (i % 7) * 4096,
            carveout: Carveout::Default,
        });
        if let Ok(o) = calculator.evaluate(&config) {
            checksum += u64::from(o.active_blocks_per_sm);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{N} evals in {seconds:.3} s = {:.1} M evals/s (checksum {checksum})",
        f64::from(N) / seconds / 1e6
    );
}
