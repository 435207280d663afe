//! The timing model's prediction for every kernel in `../shared/reference/timing/`, its terms, and
//! the measured time of the calibration rows: `cargo run --release --example timing_table`.
use warpdrill_core::analyze::{Options, analyze};

fn main() {
    let dir = std::path::Path::new("../shared/reference/timing");
    let cal = std::fs::read_to_string(dir.join("h200_timing_calibration.csv")).unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "cu"));
    files.sort();
    for path in files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let source = std::fs::read_to_string(&path).unwrap_or_default();
        let measured = cal
            .lines()
            .find(|l| l.starts_with(&format!("{name},")))
            .and_then(|l| l.split(',').nth(3))
            .and_then(|v| v.parse::<f64>().ok());
        match analyze(&source, &name, &Options::default()) {
            Ok(r) => {
                let Some(t) = r.time else {
                    println!("{name:24} no time");
                    continue;
                };
                let terms: Vec<String> = t
                    .terms
                    .list()
                    .iter()
                    .map(|(l, ms)| format!("{}={:.4}", l.key(), ms))
                    .collect();
                let err = measured.map_or(String::new(), |m| {
                    format!("{:+6.1}%", (t.ms / m - 1.0) * 100.0)
                });
                println!(
                    "{name:24} {:8.4} ms {:>8} {:9} {} rounds={:.1} bar={:.1} R={:.0}MB W={:.0}MB",
                    t.ms,
                    err,
                    t.limiter.key(),
                    terms.join(" "),
                    t.terms.latency.round_trips_per_block,
                    t.terms.latency.barrier_phases,
                    t.terms.dram.read_bytes / 1e6,
                    t.terms.dram.write_bytes / 1e6
                );
            }
            Err(e) => println!("{name:24} error: {e}"),
        }
    }
}
