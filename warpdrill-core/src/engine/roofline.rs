//! Roofline (engine notes §5) and latency/bandwidth time estimates.

use super::error::{EngineError, Result};
use serde::Serialize;

/// Which roof a kernel sits under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// Intensity below the ridge: bandwidth limits it.
    Memory,
    /// At or above the ridge: arithmetic limits it.
    Compute,
}

impl Bound {
    /// `memory` or `compute`.
    pub fn key(self) -> &'static str {
        match self {
            Bound::Memory => "memory",
            Bound::Compute => "compute",
        }
    }
}

/// Where one kernel sits on the roofline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Roofline {
    /// `I* = P / β`, FLOP per byte.
    pub ridge_intensity: f64,
    /// `min(P, β × I)`, FLOP/s.
    pub attainable_flops: f64,
    /// Memory-bound when `I < I*`.
    pub bound: Bound,
    /// `attainable / P`, 0–1.
    pub fraction_of_peak: f64,
}

fn positive(name: &'static str, value: f64) -> Result<f64> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(EngineError::range(name, value, "a positive finite number"))
    }
}

/// Places a kernel of `intensity` FLOP/B on a machine of `peak_flops` FLOP/s and `peak_bandwidth` B/s.
///
/// Worked number: H200-like 67 TFLOP/s and 4.8 TB/s → ridge ≈ 14 FLOP/B; a naive matmul at
/// 0.25 FLOP/B attains 1.2 TFLOP/s, memory-bound.
///
/// ```
/// use warpdrill_core::engine::{roofline, Bound};
/// let r = roofline(1e12, 1e11, 4.0).unwrap();
/// assert_eq!(r.ridge_intensity, 10.0);
/// assert_eq!(r.bound, Bound::Memory);
/// ```
pub fn roofline(peak_flops: f64, peak_bandwidth: f64, intensity: f64) -> Result<Roofline> {
    let peak = positive("peak compute (FLOP/s)", peak_flops)?;
    let bandwidth = positive("peak bandwidth (bytes/s)", peak_bandwidth)?;
    let intensity = positive("arithmetic intensity (FLOP/B)", intensity)?;
    let ridge = peak / bandwidth;
    if !ridge.is_finite() || ridge == 0.0 {
        return Err(EngineError::OutOfScale {
            what: "the ridge intensity",
            detail: format!(
                "{peak:e} FLOP/s ÷ {bandwidth:e} B/s {}",
                if ridge == 0.0 {
                    "rounds to 0"
                } else {
                    "is too large to represent"
                }
            ),
        });
    }
    let attainable = peak.min(bandwidth * intensity);
    if attainable == 0.0 {
        return Err(EngineError::OutOfScale {
            what: "the attainable FLOP/s",
            detail: format!("{bandwidth:e} B/s × {intensity:e} FLOP/B rounds to 0"),
        });
    }
    Ok(Roofline {
        ridge_intensity: ridge,
        attainable_flops: attainable,
        bound: if intensity < ridge {
            Bound::Memory
        } else {
            Bound::Compute
        },
        fraction_of_peak: attainable / peak,
    })
}

/// Seconds to move `bytes` at `bandwidth` bytes/s (4 MiB at 500 GB/s = 8.39 µs).
pub fn transfer_time(bytes: f64, bandwidth: f64) -> Result<f64> {
    let bytes = positive("bytes", bytes)?;
    Ok(bytes / positive("bandwidth (bytes/s)", bandwidth)?)
}

/// Seconds for `transactions` that each wait `latency_s`, one after another
/// (32 × 300 ns = 9.6 µs).
pub fn serialized_latency(transactions: u32, latency_s: f64) -> Result<f64> {
    Ok(f64::from(transactions) * positive("latency (s)", latency_s)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ridge_and_bounds() {
        let below = roofline(67e12, 4.8e12, 0.25).unwrap();
        assert!((below.ridge_intensity - 13.958).abs() < 1e-3);
        assert_eq!(below.bound, Bound::Memory);
        assert_eq!(below.attainable_flops, 1.2e12);
        let above = roofline(67e12, 4.8e12, 20.0).unwrap();
        assert_eq!(
            (above.bound, above.attainable_flops),
            (Bound::Compute, 67e12)
        );
        assert_eq!(roofline(10.0, 1.0, 10.0).unwrap().bound, Bound::Compute);
        assert!(roofline(0.0, 1.0, 1.0).is_err());
        assert!(roofline(1.0, f64::NAN, 1.0).is_err());
    }

    #[test]
    fn an_overflowing_roofline_says_so() {
        for (peak, bandwidth, intensity) in [
            (1e308, 1e-300, 1.0),
            (1e-300, 1e300, 1.0),
            (1.0, 1e-200, 1e-200),
        ] {
            let err = roofline(peak, bandwidth, intensity).unwrap_err();
            assert!(matches!(err, EngineError::OutOfScale { .. }), "{err}");
            assert!(err.to_string().contains("out of scale"), "{err}");
        }
        let huge = roofline(1e308, 1e308, 1e308).unwrap();
        assert!(huge.ridge_intensity.is_finite() && huge.attainable_flops.is_finite());
    }

    #[test]
    fn time_estimates_of_the_notes() {
        let t = transfer_time(4.0 * 1024.0 * 1024.0, 500e9).unwrap();
        assert!((t * 1e6 - 8.39).abs() < 0.01);
        assert!((serialized_latency(32, 300e-9).unwrap() - 9.6e-6).abs() < 1e-12);
    }
}
