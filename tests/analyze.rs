//! The kernel analyser against the H200's whole-kernel counts, the single-warp engine, and bad input.

use proptest::prelude::*;
use std::path::PathBuf;
use warpdrill::analyze::{self, AnalyzeError, Launch, Options};
use warpdrill::engine::{Granularity, WarpAccess, coalesce};

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference")
}

#[test]
fn every_reference_kernel_matches_the_h200_totals() {
    let mut reader = csv::Reader::from_path(reference_dir().join("h200_kernels_sample.csv"))
        .expect("the reference sample is readable");
    let headers = reader.headers().expect("a header").clone();
    let col = |name: &str| headers.iter().position(|h| h == name).expect(name);
    let mut checked = 0;
    for row in reader.records() {
        let row = row.expect("a row");
        let name = &row[col("kernel")];
        let path = reference_dir().join("kernels").join(format!("{name}.cu"));
        let source = std::fs::read_to_string(&path).expect("the kernel source");
        let launch = Launch {
            grid: analyze::parse_dims(&row[col("grid")]).unwrap(),
            block: analyze::parse_dims(&row[col("block")]).unwrap(),
        };
        // The launch line of the file agrees with the table.
        assert_eq!(
            analyze::launch_line(&source).unwrap(),
            Some(launch),
            "{name}"
        );
        let report = analyze::analyze(&source, name, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let t = report.totals;
        let num = |c: &str| row[col(c)].parse::<u64>().unwrap();
        let got = [
            ("global_load_sectors", t.global_load_sectors),
            ("global_load_requests", t.global_load_requests),
            ("global_store_sectors", t.global_store_sectors),
            ("global_store_requests", t.global_store_requests),
            ("shared_load_wavefronts", t.shared_load_wavefronts),
            ("shared_load_conflicts", t.shared_load_conflicts),
            ("shared_store_wavefronts", t.shared_store_wavefronts),
            ("shared_store_conflicts", t.shared_store_conflicts),
            ("global_load_instructions", t.global_load_instructions),
            ("global_store_instructions", t.global_store_instructions),
        ];
        for (metric, value) in got {
            assert_eq!(value, num(metric), "{name}: {metric}");
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
}
