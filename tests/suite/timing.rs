//! The timing model on the 29 reference kernels of `../shared/reference/timing/`: every one gets a
//! predicted time from `analyze --json`, the seven calibration kernels land within 10 % of their
//! measured times, and the order inside each family comes out of the physics.

use crate::common::warpdrill;
use std::collections::HashMap;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/timing")
}

/// `analyze --json` on every timing kernel: file name → the JSON `time` object.
fn times() -> HashMap<String, serde_json::Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("reference/timing is there")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 29, "the 29 timing kernels");
    let mut out = HashMap::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let run = warpdrill()
            .args(["analyze", "--json"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
        out.insert(name, json["time"].clone());
    }
    out
}

fn ms(times: &HashMap<String, serde_json::Value>, name: &str) -> f64 {
    times[name]["ms"]
        .as_f64()
        .unwrap_or_else(|| panic!("{name} has time.ms"))
}

#[test]
fn every_timing_kernel_has_a_time_and_the_calibration_rows_are_within_ten_percent() {
    let times = times();
    for (name, t) in &times {
        let ms = t["ms"].as_f64().unwrap_or(-1.0);
        assert!(ms > 0.0 && ms.is_finite(), "{name}: {t}");
        assert!(t["limiter"].is_string(), "{name}: {t}");
        for term in [
            "dram", "latency", "dispatch", "l1", "l2", "barriers", "issue",
        ] {
            assert!(t["terms"][term]["ms"].is_number(), "{name}: no {term} term");
        }
        assert_eq!(t["gpu"], "h200");
        assert_eq!(t["calibrated"], true);
    }
    let cal = std::fs::read_to_string(dir().join("h200_timing_calibration.csv")).unwrap();
    let mut rows = 0;
    for line in cal.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let measured: f64 = cols[3].parse().unwrap();
        let predicted = ms(&times, cols[0]);
        let err = predicted / measured - 1.0;
        assert!(
            err.abs() <= 0.10,
            "{}: predicted {predicted:.4} ms, measured {measured:.4} ms ({:+.1} %)",
            cols[0],
            err * 100.0
        );
        rows += 1;
    }
    assert_eq!(rows, 7);
}

#[test]
fn the_order_inside_each_family_comes_out_right() {
    let t = times();
    let ms = |n: &str| ms(&t, n);
    let descending = |names: &[&str]| {
        for pair in names.windows(2) {
            assert!(
                ms(pair[0]) > ms(pair[1]),
                "{} ({:.4} ms) should be slower than {} ({:.4} ms)",
                pair[0],
                ms(pair[0]),
                pair[1],
                ms(pair[1])
            );
        }
    };
    descending(&[
        "transpose_naive.cu",
        "transpose_tiled32.cu",
        "transpose_tiled33.cu",
    ]);
    descending(&["matmul_naive.cu", "matmul_tiled.cu"]);
    descending(&["copy_f32_b64.cu", "copy_f32_b128.cu", "copy_f32_b256.cu"]);
    descending(&["ilp1_g528.cu", "ilp4_g528.cu"]);
    descending(&["ilp1_g2112.cu", "ilp4_g2112.cu"]);
    descending(&["stride16.cu", "stride8.cu", "stride4.cu", "stride2.cu"]);
    // The sequential reduction has the fewest shared instructions, no conflicts and the fewest
    // active warps per phase: the fastest of the three.
    for slower in ["reduce_interleaved.cu", "reduce_strided_index.cu"] {
        descending(&[slower, "reduce_sequential.cu"]);
    }
}

#[test]
fn other_gpus_are_marked_not_calibrated_and_an_unknown_one_is_refused() {
    let path = dir().join("copy_f32_b256.cu");
    let run = warpdrill()
        .args(["analyze", "--json", "--gpu", "a100"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(run.status.success());
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(json["time"]["gpu"], "a100");
    assert_eq!(json["time"]["calibrated"], false);
    let text = warpdrill()
        .args(["analyze", "--text", "--gpu", "l4"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("predicted time on NVIDIA L4"), "{text}");
    assert!(text.contains("not calibrated"), "{text}");
    let bad = warpdrill()
        .args(["analyze", "--json", "--gpu", "mi300"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--gpu mi300"));
}

#[test]
fn the_text_report_names_the_limiter_terms_and_baselines() {
    let run = warpdrill()
        .args(["analyze", "--text"])
        .arg(dir().join("copy_f32_b64.cu"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(text.contains("limited by the rate blocks start"), "{text}");
    for needle in [
        "DRAM",
        "latency",
        "block starts",
        "naive roofline",
        "copy bandwidth",
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
}
