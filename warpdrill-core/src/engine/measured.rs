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
/// use warpdrill_core::engine::measured::{h200, Fact};
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

/// The H200's dense sweeps (`../reference/h200_sweeps.csv`, copied into the source tree so the
/// binary carries it; a test keeps the copy equal to the reference file).
const SWEEPS_CSV: &str = include_str!("data/h200_sweeps.csv");

/// A sweep the H200 measured at every integer step, to draw beside the model's curve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeasuredSweep {
    /// Useful read bandwidth (bytes/s) against stride in elements, one load per thread of
    /// `elem_bytes` (4: strides 1–64, 8: 1–32, 16: 1–16).
    GlobalStride {
        /// Bytes per thread: 4, 8 or 16.
        elem_bytes: u32,
    },
    /// Useful read bandwidth (bytes/s) of 4-byte elements at stride 1 against the offset in elements
    /// (0–32).
    GlobalOffset,
    /// Clock cycles per shared load of one warp against the stride in elements (4-byte: 0–64,
    /// 8-byte: 0–32).
    SharedStride {
        /// Bytes per lane: 4 or 8.
        elem_bytes: u32,
    },
}

impl MeasuredSweep {
    /// What the values are, for a legend: `useful GB/s` or `cycles per load`.
    pub fn unit(self) -> &'static str {
        match self {
            MeasuredSweep::GlobalStride { .. } | MeasuredSweep::GlobalOffset => "useful GB/s",
            MeasuredSweep::SharedStride { .. } => "cycles per load",
        }
    }

    /// The measured points `(parameter, value)`, ascending; empty when the H200 did not measure this
    /// sweep (another element size). Bandwidths in bytes/s, times in cycles.
    ///
    /// Worked numbers: `GlobalStride { elem_bytes: 4 }` at stride 1 → 1645.5e9, at 32 → 251.7e9 (a 6.5×
    /// slowdown for 8× the sectors); `SharedStride { elem_bytes: 4 }` at 32 → 66.09 cycles.
    pub fn points(self) -> &'static [(i64, f64)] {
        // Read once per sweep kind (a panel asks on every frame).
        static CACHE: std::sync::OnceLock<[Vec<(i64, f64)>; 6]> = std::sync::OnceLock::new();
        let all = CACHE.get_or_init(|| {
            [
                MeasuredSweep::GlobalStride { elem_bytes: 4 },
                MeasuredSweep::GlobalStride { elem_bytes: 8 },
                MeasuredSweep::GlobalStride { elem_bytes: 16 },
                MeasuredSweep::GlobalOffset,
                MeasuredSweep::SharedStride { elem_bytes: 4 },
                MeasuredSweep::SharedStride { elem_bytes: 8 },
            ]
            .map(MeasuredSweep::read)
        });
        let index = match self {
            MeasuredSweep::GlobalStride { elem_bytes: 4 } => 0,
            MeasuredSweep::GlobalStride { elem_bytes: 8 } => 1,
            MeasuredSweep::GlobalStride { elem_bytes: 16 } => 2,
            MeasuredSweep::GlobalOffset => 3,
            MeasuredSweep::SharedStride { elem_bytes: 4 } => 4,
            MeasuredSweep::SharedStride { elem_bytes: 8 } => 5,
            _ => return &[],
        };
        &all[index]
    }

    /// The points of this sweep, read from the embedded file.
    fn read(self) -> Vec<(i64, f64)> {
        let mut points = Vec::new();
        for line in SWEEPS_CSV.lines() {
            let cells: Vec<&str> = line.split(',').collect();
            let point = match (self, cells.as_slice()) {
                (
                    MeasuredSweep::GlobalStride { elem_bytes },
                    ["stride", elem, stride, "0", _, _, gbps],
                ) if elem.parse() == Ok(elem_bytes) => stride
                    .parse()
                    .ok()
                    .zip(gbps.parse::<f64>().ok().map(|g| g * 1e9)),
                (MeasuredSweep::GlobalOffset, ["offset", "4", "1", offset, _, _, gbps]) => offset
                    .parse()
                    .ok()
                    .zip(gbps.parse::<f64>().ok().map(|g| g * 1e9)),
                (MeasuredSweep::SharedStride { elem_bytes }, ["smem", elem, stride, cycles])
                    if elem.parse() == Ok(elem_bytes) =>
                {
                    stride.parse().ok().zip(cycles.parse().ok())
                }
                _ => None,
            };
            points.extend(point);
        }
        points.sort_by_key(|(x, _)| *x);
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The figures here are the ones in the measurement file.
    #[test]
    fn figures_match_the_measurements() {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/h200_perf.csv");
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

    /// The copy the binary carries is the reference file, byte for byte, and every section reads.
    #[test]
    fn embedded_sweeps_equal_the_reference_file() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/reference/h200_sweeps.csv");
        let text = std::fs::read_to_string(&path).expect("h200_sweeps.csv");
        assert_eq!(SWEEPS_CSV, text);
        let stride4 = MeasuredSweep::GlobalStride { elem_bytes: 4 }.points();
        assert_eq!(stride4.len(), 64);
        assert_eq!(stride4[0], (1, 1645.5e9));
        assert_eq!(
            MeasuredSweep::GlobalStride { elem_bytes: 8 }.points().len(),
            32
        );
        assert_eq!(
            MeasuredSweep::GlobalStride { elem_bytes: 16 }
                .points()
                .len(),
            16
        );
        assert_eq!(MeasuredSweep::GlobalOffset.points().len(), 33);
        let smem4 = MeasuredSweep::SharedStride { elem_bytes: 4 }.points();
        assert_eq!(smem4.len(), 65);
        assert_eq!(smem4[32], (32, 66.09));
        assert_eq!(
            MeasuredSweep::SharedStride { elem_bytes: 8 }.points().len(),
            33
        );
        assert!(
            MeasuredSweep::GlobalStride { elem_bytes: 2 }
                .points()
                .is_empty()
        );
    }

    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
}
