//! The engine against ground truth: every row of the H200 access sample (Nsight Compute counters) and of
//! the occupancy sample (NVIDIA's calculator, confirmed by the H200 driver) must agree.

use std::path::PathBuf;
use warpdrill::engine::{
    Arch, Carveout, Granularity, KernelConfig, WarpAccess, bank_conflicts, coalesce, occupancy,
};

fn reference(name: &str) -> csv::Reader<std::fs::File> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/reference")
        .join(name);
    csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn field<'a>(record: &'a csv::StringRecord, headers: &csv::StringRecord, name: &str) -> &'a str {
    let index = headers
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    record.get(index).unwrap_or("")
}

#[test]
fn h200_access_sample_agrees_row_by_row() {
    let mut reader = reference("h200_access_sample.csv");
    let headers = reader.headers().unwrap().clone();
    let hopper = Arch::parse("sm_90").unwrap();
    let mut checked = (0, 0);
    let mut mismatches = Vec::new();
    for record in reader.records() {
        let record = record.unwrap();
        let get = |name| field(&record, &headers, name);
        let elem: u32 = get("elem_bytes").parse().unwrap();
        let mask = u64::from_str_radix(get("active_mask").trim_start_matches("0x"), 16).unwrap();
        let offsets: Vec<i64> = get("offsets_bytes")
            .split(';')
            .map(|o| o.parse().unwrap())
            .collect();
        let access = WarpAccess::explicit(elem, offsets).with_mask(mask);
        let label = format!(
            "row {} ({} {}B {})",
            get("id"),
            get("space"),
            elem,
            get("label")
        );
        match get("space") {
            "global" => {
                let c = coalesce(&access, Granularity::Sector).unwrap();
                let want: (u32, u32) = (
                    get("sectors").parse().unwrap(),
                    get("requests").parse().unwrap(),
                );
                if (c.sectors, c.requests) != want {
                    mismatches.push(format!(
                        "{label}: sectors/requests {:?}, measured {want:?}",
                        (c.sectors, c.requests)
                    ));
                }
                checked.0 += 1;
            }
            "shared" => {
                let b = bank_conflicts(&access, hopper).unwrap();
                let want: (u32, u32) = (
                    get("wavefronts").parse().unwrap(),
                    get("bank_conflicts").parse().unwrap(),
                );
                if (b.wavefronts, b.bank_conflicts) != want {
                    mismatches.push(format!(
                        "{label}: wavefronts/conflicts {:?}, measured {want:?}",
                        (b.wavefronts, b.bank_conflicts)
                    ));
                }
                checked.1 += 1;
            }
            other => panic!("unknown space {other}"),
        }
    }
    assert!(checked.0 > 0 && checked.1 > 0, "no rows read: {checked:?}");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn occupancy_sample_agrees_row_by_row() {
    let mut reader = reference("occupancy_sample.csv");
    let headers = reader.headers().unwrap().clone();
    let mut mismatches = Vec::new();
    let mut checked = 0;
    for record in reader.records() {
        let record = record.unwrap();
        let get = |name| field(&record, &headers, name);
        let num = |name| -> u32 { get(name).parse().unwrap() };
        let arch = Arch::parse(get("cc")).unwrap();
        let config = KernelConfig {
            block_size: num("block_size"),
            regs_per_thread: num("regs_per_thread"),
            static_smem: num("static_smem"),
            dynamic_smem: num("dynamic_smem"),
            carveout: Carveout::from_pct(get("carveout_pct").parse().unwrap()).unwrap(),
        };
        let o = occupancy(arch, &config).unwrap();
        let want = (
            num("active_blocks_per_sm"),
            num("active_warps_per_sm"),
            num("max_warps_per_sm"),
        );
        let got = (
            o.active_blocks_per_sm,
            o.active_warps_per_sm,
            o.max_warps_per_sm,
        );
        let limiter_ok = o.limited_by.iter().any(|l| l.key() == get("limited_by"));
        if got != want || !limiter_ok {
            mismatches.push(format!(
                "{config:?} on {}: got {got:?} limited by [{}], calculator {want:?} limited by {}",
                arch.key,
                o.limited_by.describe(),
                get("limited_by")
            ));
        }
        checked += 1;
    }
    assert!(checked > 500, "only {checked} rows read");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
