//! What a real H200 does (engine notes §7, `../reference/h200_perf.csv`): measured figures that the
//! models are held against. They are facts of one machine, not rules; exercises quote them from here.

use super::error::{EngineError, Result};
use serde::{Deserialize, Serialize};

/// One measured figure of the NVIDIA H200 (132 SMs, SM clock 1.98 GHz, HBM3e).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fact {
    /// Extra latency of a register operand, cycles (0).
    RegisterLatency,
    /// Dependent shared-memory load, SM cycles (≈ 29).
    SharedLatency,
    /// L1 hit, SM cycles (≈ 39).
    L1Latency,
    /// L2 hit, SM cycles (≈ 284).
    L2Latency,
    /// Device-memory (HBM3e) load, SM cycles (≈ 650–670).
    DramLatency,
    /// Useful bandwidth of one 4-byte load per thread at this stride, bytes/s (stride 1 → 1664 GB/s).
    StrideBandwidth(u32),
    /// Rate of sector traffic once memory saturates (strides 4–8), bytes/s (≈ 4.6 TB/s).
    SaturatedSectorBandwidth,
    /// One 16-byte load per thread, bytes/s (4574 GB/s).
    Vector16Bandwidth,
    /// Peak memory bandwidth, bytes/s (4.8 TB/s).
    PeakBandwidth,
    /// One float field of a 24-byte struct, useful bytes/s (763 GB/s).
    Aos24FieldBandwidth,
    /// One warp's shared load with this conflict degree (1, 2, 4, 8, 16, 32), cycles per load.
    BankConflictCycles(u32),
    /// Streaming multiprocessors (132).
    Sms,
    /// SM clock, Hz (1.98 GHz).
    ClockHz,
    /// L2 cache, bytes (60 MB).
    L2Bytes,
}

/// The measured value of `fact`.
///
/// ```
/// use warpdrill::engine::measured::{h200, Fact};
/// assert_eq!(h200(Fact::L2Latency).unwrap(), 284.0);
/// assert_eq!(h200(Fact::StrideBandwidth(32)).unwrap(), 250.5e9);
/// ```
pub fn h200(fact: Fact) -> Result<f64> {
    Ok(match fact {
        Fact::RegisterLatency => 0.0,
        Fact::SharedLatency => 29.0,
        Fact::L1Latency => 39.0,
        Fact::L2Latency => 284.0,
        Fact::DramLatency => 660.0,
        Fact::StrideBandwidth(stride) => {
            let gbps = match stride {
                1 => 1664.1,
                2 => 1593.0,
                3 => 1396.0,
                4 => 1145.1,
                8 => 574.3,
                16 => 288.9,
                32 => 250.5,
                64 => 183.9,
                128 => 171.3,
                other => {
                    return Err(EngineError::range(
                        "measured stride",
                        other,
                        "one of 1, 2, 3, 4, 8, 16, 32, 64, 128",
                    ));
                }
            };
            gbps * 1e9
        }
        Fact::SaturatedSectorBandwidth => 4.6e12,
        Fact::Vector16Bandwidth => 4573.8e9,
        Fact::PeakBandwidth => 4.8e12,
        Fact::Aos24FieldBandwidth => 763.3e9,
        Fact::BankConflictCycles(way) => match way {
            1 => 7.08,
            2 => 7.15,
            4 => 10.08,
            8 => 18.08,
            16 => 34.08,
            32 => 66.08,
            other => {
                return Err(EngineError::range(
                    "measured conflict degree",
                    other,
                    "one of 1, 2, 4, 8, 16, 32",
                ));
            }
        },
        Fact::Sms => 132.0,
        Fact::ClockHz => 1.98e9,
        Fact::L2Bytes => 60.0 * 1024.0 * 1024.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The figures here are the ones in the measurement file.
    #[test]
    fn figures_match_the_measurements() {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/h200_perf.csv");
        let text = std::fs::read_to_string(&path).expect("h200_perf.csv");
        let mut checked = 0;
        for line in text.lines() {
            let cells: Vec<&str> = line.split(',').collect();
            match cells.as_slice() {
                ["global_stride", "4", stride, "0", _, _, useful, _] => {
                    let stride: u32 = stride.parse().unwrap();
                    let want: f64 = useful.parse().unwrap();
                    assert_eq!(
                        h200(Fact::StrideBandwidth(stride)).unwrap(),
                        want * 1e9,
                        "stride {stride}"
                    );
                    checked += 1;
                }
                ["smem_stride", stride, cycles] => {
                    let stride: u32 = stride.parse().unwrap();
                    let want: f64 = cycles.parse().unwrap();
                    // Conflict degree of a word stride is gcd(stride, 32); stride 0 is a broadcast.
                    let way = if stride == 0 { 1 } else { gcd(stride, 32) };
                    if way == stride.max(1) || stride == 0 {
                        assert_eq!(
                            h200(Fact::BankConflictCycles(way)).unwrap(),
                            want,
                            "{way}-way"
                        );
                        checked += 1;
                    }
                }
                _ => {}
            }
        }
        assert!(checked >= 12, "only {checked} figures checked");
        assert!(h200(Fact::StrideBandwidth(5)).is_err());
    }

    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
}
