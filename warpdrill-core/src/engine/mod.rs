//! The computation engine: every number warpdrill shows comes from here.
//!
//! Pure functions over plain data: no terminal, no files. Each module implements one section of the
//! engine notes: [`coalescing`] (§1), [`banks`] (§2), [`occupancy`] (§3 and §6), [`tiling`] (§4),
//! [`roofline`] (§5), with the architecture figures in [`arch`] and the lanes' addresses in [`access`].

pub mod access;
pub mod arch;
pub mod banks;
pub mod coalescing;
pub mod error;
pub mod measured;
pub mod occupancy;
pub mod roofline;
pub mod shape;
pub mod sweep;
pub mod tiling;
pub mod timing;

pub use access::{
    ELEM_SIZES, LaneAddresses, LaneArray, LinearLanes, Op, Pattern, WarpAccess, full_mask,
};
pub use arch::{ARCHS, AmdLimits, Arch, Granularity, NvidiaLimits, Vendor};
pub use banks::{BankAnalysis, BankCounts, bank_conflicts, bank_counts, bank_of};
pub use coalescing::{Coalescing, CoalescingCounts, coalesce, coalesce_counts};
pub use error::{EngineError, Result};
pub use occupancy::{
    AmdWaves, Carveout, KernelConfig, LaunchRefusal, Limiter, Limiters, Occupancy,
    OccupancyCalculator, amd_waves, launch_refusals, nvidia_occupancy, occupancy, register_warps,
    shared_memory_blocks,
};
pub use roofline::{Bound, Roofline, roofline, serialized_latency, transfer_time};
pub use shape::{AccessShape, parse_mask, parse_mask_for};
pub use sweep::{AccessParam, OccupancyParam, SweepRange, banks_sweep, coalescing_sweep};
pub use tiling::{Tiling, TilingInput, rectangular_traffic, tiling};
