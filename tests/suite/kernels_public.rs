//! Public kernels as their authors wrote them (tests/kernels-public): the share analysed as written.

use std::path::PathBuf;
use warpdrill::analyze::{self, Launch, Options};

#[test]
fn public_kernels_are_analysed_as_the_table_says() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/kernels-public");
    let mut reader = csv::Reader::from_path(dir.join("corpus.csv")).expect("the corpus table");
    let mut analysed = 0;
    let mut total = 0;
    let mut changed = Vec::new();
    for row in reader.records() {
        let row = row.expect("a row");
        let (file, kernel, grid, block, defines, expect) =
            (&row[0], &row[1], &row[2], &row[3], &row[4], &row[5]);
        let (assume, h200) = (&row[6], &row[7]);
        let source = std::fs::read_to_string(dir.join(file)).expect("the kernel source");
        let options = Options {
            kernel: Some(kernel.to_string()),
            launch: Some(Launch {
                grid: analyze::parse_dims(grid).unwrap(),
                block: analyze::parse_dims(block).unwrap(),
            }),
            defines: defines
                .split_whitespace()
                .map(|d| analyze::parse_define(d).unwrap())
                .collect(),
            headers: analyze::headers_beside(&dir.join(file), &source),
            assume: assume
                .split_whitespace()
                .map(|a| analyze::assume::Assumption::parse(a, &dir).unwrap())
                .collect(),
            ..Options::default()
        };
        let result = analyze::analyze(&source, file, &options);
        if let (Ok(report), false) = (&result, h200.is_empty()) {
            // Nsight Compute on the H200 (tests/kernels-public/README.md): global load and
            // store requests and sectors, shared load and store wavefronts.
            let t = &report.totals;
            let got = [
                t.global_load_requests,
                t.global_load_sectors,
                t.global_store_requests,
                t.global_store_sectors,
                t.shared_load_wavefronts,
                t.shared_store_wavefronts,
            ];
            let want: Vec<u64> = h200
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            // Global traffic exactly; shared wavefronts within 5 % (the H200's vary a little
            // from run to run with how bank conflicts line up).
            let close = |g: u64, w: u64| g.abs_diff(w) * 20 <= w;
            let matches = got[..4] == want[..4] && close(got[4], want[4]) && close(got[5], want[5]);
            if !matches {
                changed.push(format!(
                    "{file} {kernel}: the H200 counts {want:?}, the analyser {got:?}"
                ));
            }
            assert_eq!(
                report.assumed.is_empty(),
                assume.is_empty(),
                "{file} {kernel}: figures from assumed data are marked so"
            );
        }
        total += 1;
        let ok = result.is_ok();
        if ok {
            analysed += 1;
        }
        let too_long = matches!(&result, Err(analyze::AnalyzeError::TooLong { .. }));
        if ok != (expect == "analysed") || too_long != (expect == "too long") {
            changed.push(format!(
                "{file} {kernel}: expected {expect}, got {}",
                match &result {
                    Ok(_) => "analysed".to_string(),
                    Err(e) => e.to_string(),
                }
            ));
        }
        if let Err(e) = &result
            && !too_long
        {
            // A refusal is an unsupported construct, named with its place, not a bad input.
            assert!(
                matches!(
                    e,
                    analyze::AnalyzeError::Unsupported { .. } | analyze::AnalyzeError::Several(_)
                ),
                "{file} {kernel}: {e}"
            );
            assert!(e.to_string().starts_with(&format!("{file}:")), "{e}");
        }
    }
    println!("public kernels analysed as written: {analysed} of {total}");
    assert!(changed.is_empty(), "{}", changed.join("\n"));
    assert_eq!(
        (analysed, total),
        (33, 34),
        "update tests/kernels-public/README.md"
    );
}
