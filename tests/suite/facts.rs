//! The facts the content states, pinned to the engine and to the H200 measurements in
//! ../shared/reference/: stride 32 is 8× the sectors (32× only with 128-byte lines), an aligned
//! offset costs no sector and no offset costs more than 2 %, the AoS penalty is bandwidth against
//! latency (no sector reused), the register file's sub-partitions decide the blocks. And the claims
//! these replaced appear in no language's text.

use std::path::{Path, PathBuf};
use warpdrill::content::Content;
use warpdrill::engine::{Arch, Granularity, KernelConfig, WarpAccess, coalesce, occupancy};
use warpdrill::i18n::Lang;
use warpdrill::ladder::{self, AnswerKey, Response, Variant};

const LANGS: [Lang; 3] = [Lang::En, Lang::Ko, Lang::HiLatn];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Rows of a reference CSV (comments and header lines dropped), as cells.
fn rows(name: &str) -> Vec<Vec<String>> {
    let path = root().join("../shared/reference").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("section,"))
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// Column `column` of the first row of `name` whose leading cells are `key`.
fn cell(name: &str, key: &[&str], column: usize) -> f64 {
    rows(name)
        .into_iter()
        .find(|row| row.iter().zip(key).all(|(c, k)| c == k))
        .unwrap_or_else(|| panic!("no row {key:?} in {name}"))[column]
        .parse()
        .unwrap()
}

/// Sectors (32 bytes) or lines (128 bytes) one warp's load touches.
fn sectors(access: &WarpAccess, granularity: Granularity) -> u32 {
    let c = coalesce(access, granularity).unwrap();
    match granularity {
        Granularity::Sector => c.sectors,
        Granularity::Line => c.lines,
    }
}

fn card<'a>(content: &'a Content, id: &str) -> &'a warpdrill::content::schema::Card {
    content
        .cards
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no card {id}"))
}

fn variants(content: &Content, id: &str) -> Vec<Variant> {
    let template = content
        .exercise(id)
        .unwrap_or_else(|| panic!("no exercise {id}"));
    (0..60)
        .map(|seed| ladder::generate(template, seed).unwrap())
        .collect()
}

fn value(v: &Variant, name: &str) -> f64 {
    *v.numbers
        .get(name)
        .unwrap_or_else(|| panic!("{}: no value {name}", v.exercise_id))
}

#[test]
fn stride_32_is_8x_the_sectors_and_the_card_says_so() {
    let unit = sectors(&WarpAccess::affine(4, 1, 0), Granularity::Sector);
    let strided = sectors(&WarpAccess::affine(4, 32, 0), Granularity::Sector);
    assert_eq!((unit, strided), (4, 32));
    assert_eq!(strided / unit, 8, "sectors");
    // 32× is what 128-byte lines would give.
    let lines = |s| sectors(&WarpAccess::affine(4, s, 0), Granularity::Line);
    assert_eq!(lines(32) / lines(1), 32, "lines");
    // Measured: 6.6× slower (h200_perf.csv), not 8× and not 32×.
    let slowdown = cell("h200_perf.csv", &["global_stride", "4", "1", "0"], 6)
        / cell("h200_perf.csv", &["global_stride", "4", "32", "0"], 6);
    assert!((slowdown - 6.6).abs() < 0.05, "{slowdown}");
    let content = Content::builtin();
    for (lang, eight) in [(Lang::En, "8×"), (Lang::Ko, "8배"), (Lang::HiLatn, "8×")] {
        let local = content.in_lang(lang);
        let c = card(&local, "coal-stride32-measured");
        assert!(c.front.contains(eight), "{lang:?}: {}", c.front);
        assert!(
            !c.front.contains("32×") && !c.front.contains("32배"),
            "{lang:?}: {}",
            c.front
        );
        assert!(c.back.contains("6.6"), "{lang:?}: {}", c.back);
    }
    // 4 MiB fully strided: 8× the 8.39 µs ≈ 67 µs with sectors; 268 µs is the line model.
    let base = 4.0 * 1_048_576.0 / 500e9;
    assert_eq!(format!("{:.0}", base * 8.0 * 1e6), "67");
    for lang in LANGS {
        let back = card(&content.in_lang(lang), "lat-4mib").back.clone();
        assert!(back.contains("67 µs"), "{lang:?}: {back}");
    }
}

#[test]
fn aligned_offsets_cost_no_sector_and_no_offset_costs_over_2_percent() {
    // Engine: 8 floats = 32 bytes (a sector boundary) and 32 floats = 128 bytes (a line) add nothing.
    for offset in [0, 8, 16, 24, 32] {
        assert_eq!(
            sectors(&WarpAccess::affine(4, 1, offset), Granularity::Sector),
            4,
            "{offset}"
        );
    }
    for offset in (1..32).filter(|o| o % 8 != 0) {
        assert_eq!(
            sectors(&WarpAccess::affine(4, 1, offset), Granularity::Sector),
            5,
            "{offset}"
        );
    }
    // 128 bytes from byte 64: sector-aligned, not line-aligned: 4 sectors, 2 lines; from 68: 5 and 2.
    let at = |byte: i64| WarpAccess::explicit(4, (0..32).map(|t| byte + 4 * t).collect());
    assert_eq!(sectors(&at(64), Granularity::Sector), 4);
    assert_eq!(sectors(&at(64), Granularity::Line), 2);
    assert_eq!(sectors(&at(68), Granularity::Sector), 5);
    assert_eq!(sectors(&at(68), Granularity::Line), 2);
    // h200_sweeps.csv: every offset 1–32 within 2 % of aligned.
    let offsets: Vec<(u32, f64)> = rows("h200_sweeps.csv")
        .into_iter()
        .filter(|r| r[0] == "offset" && r[1] == "4")
        .map(|r| (r[3].parse().unwrap(), r[6].parse().unwrap()))
        .collect();
    assert_eq!(offsets.len(), 33);
    let aligned = offsets.iter().find(|(o, _)| *o == 0).unwrap().1;
    for &(offset, useful) in &offsets {
        assert!(
            useful >= 0.98 * aligned,
            "offset {offset}: {useful} against {aligned}"
        );
    }
    // The cards say so in every language, and the alignment card counts the sector case.
    let content = Content::builtin();
    for lang in LANGS {
        let local = content.in_lang(lang);
        let back = &card(&local, "coal-misalign-measured").back;
        assert!(back.contains("2 %"), "{lang:?}: {back}");
        let lines = &card(&local, "coal-align-lines").back;
        assert!(
            lines.contains("68") && lines.contains('5'),
            "{lang:?}: {lines}"
        );
    }
    // Every line-cost variant: an offset that is a multiple of 8 floats fetches 4 sectors.
    for v in variants(&content, "l3-line-cost") {
        let offset = value(&v, "sectors");
        let drawn = match v.params.get("offset") {
            Some(warpdrill::ladder::variant::ParamValue::Number(n)) => *n,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            offset,
            if drawn % 8.0 == 0.0 { 4.0 } else { 5.0 },
            "offset {drawn}"
        );
    }
}

#[test]
fn the_aos_penalty_is_bandwidth_against_latency_not_reuse() {
    // One float field of a 24-byte struct: lane t reads bytes 24t … 24t + 3.
    let aos = sectors(
        &WarpAccess::explicit(4, (0..32).map(|t| 24 * t).collect()),
        Granularity::Sector,
    );
    let soa = sectors(&WarpAccess::affine(4, 1, 0), Granularity::Sector);
    assert_eq!((aos, soa), (24, 4));
    // A warp's 32 structs span 768 bytes, a whole number of sectors: neighbouring warps share none.
    assert_eq!(32 * 24 % 32, 0);
    let (aos_useful, soa_useful) = (
        cell("h200_perf.csv", &["aos24_field_x"], 6),
        cell("h200_perf.csv", &["global_stride", "4", "1", "0"], 6),
    );
    let saturated = cell("h200_perf.csv", &["global_stride", "4", "4", "0"], 7);
    let ratio = soa_useful / aos_useful;
    let model = (aos / soa) as f64 * soa_useful / saturated;
    assert!((ratio - 2.2).abs() < 0.05, "measured {ratio}");
    assert!((model - 2.2).abs() < 0.05, "6 × 1664 / 4580 = {model}");
    // The AoS sector traffic is the saturated rate.
    assert!((aos_useful * 6.0 / saturated - 1.0).abs() < 0.01);

    // The grader no longer credits cache reuse; the time comparison is an idea of its own.
    let content = Content::builtin();
    for (lang, reuse, times) in [
        (
            Lang::En,
            "Caches help: neighbouring warps reuse sectors from L2, so sectors are reused.",
            "Compare times, not bytes: 6 × 1664 / 4580 ≈ 2.2.",
        ),
        (
            Lang::Ko,
            "캐시가 도와 준다: 이웃 warp가 L2에서 재사용한다.",
            "바이트가 아니라 시간을 비교하면 6 × 1664 / 4580 ≈ 2.2다.",
        ),
        (
            Lang::HiLatn,
            "Cache madad karta hai: padosi warps sectors L2 se reuse karte hain.",
            "Bytes nahi, time compare karo: 6 × 1664 / 4580 ≈ 2.2.",
        ),
    ] {
        let local = content.in_lang(lang);
        let v = ladder::generate(local.exercise("l5-aos-measured").unwrap(), 0).unwrap();
        let AnswerKey::Explain { ideas, .. } = &v.key else {
            panic!("l5-aos-measured is not an explanation")
        };
        let third = ideas[2].name.clone();
        let found = |text: &str| ladder::grade(&v, Response::Text(text)).ideas_found;
        assert!(
            !found(reuse).contains(&third),
            "{lang:?}: {reuse} credited {third}"
        );
        assert!(
            found(times).contains(&third),
            "{lang:?}: {times} missed {third}"
        );
        assert!(
            !found(&format!("{times} {reuse}")).contains(&third),
            "{lang:?}: reuse with the right number is still credited"
        );
        for text in [&card(&local, "coal-aos-measured").back, &v.explanation] {
            assert!(text.contains("2.2"), "{lang:?}: {text}");
        }
        let model = match &v.key {
            AnswerKey::Explain { model, .. } => model,
            _ => unreachable!(),
        };
        // From the GB/s the prompt shows: 763 GB/s × 6 = 4578 GB/s (the measured ≈ 4.58 TB/s).
        assert!(model.contains("6 × 1664 / 4578"), "{lang:?}: {model}");
    }
}

#[test]
fn register_sub_partitions_run_24_blocks_not_25() {
    let hopper = Arch::parse("sm_90").unwrap();
    let o = occupancy(hopper, &KernelConfig::new(64, 40)).unwrap();
    assert_eq!(o.active_blocks_per_sm, 24);
    // The whole-file count the card used to teach: 65 536 / (2 warps × 1280 registers) = 25.
    let per_warp = (40u32 * 32).div_ceil(256) * 256;
    assert_eq!(65_536 / (2 * per_warp), 25);
    assert_eq!(4 * (16_384 / per_warp) / 2, 24);
    let content = Content::builtin();
    for lang in LANGS {
        let back = card(&content.in_lang(lang), "drill-register-occupancy")
            .back
            .clone();
        assert!(
            back.contains("24") && back.contains("25"),
            "{lang:?}: {back}"
        );
        assert!(back.contains("sub-partition"), "{lang:?}: {back}");
    }
}

#[test]
fn exercise_numbers_stay_physical() {
    let content = Content::builtin();
    let hopper = Arch::parse("sm_90").unwrap();
    let per_scheduler = (hopper.nvidia.as_ref().unwrap().max_threads_per_sm / 32 / 4) as f64;
    assert_eq!(per_scheduler, 16.0);
    // Loads in flight: the fewest per warp that let 16 warps cover the latency.
    for v in variants(&content, "l2-warps-to-hide-latency") {
        let (latency, work) = (value(&v, "latency"), value(&v, "independent"));
        let loads = v.key.value().unwrap();
        assert!(per_scheduler * loads * work >= latency, "{}", v.prompt);
        assert!(
            per_scheduler * (loads - 1.0) * work < latency,
            "{}",
            v.prompt
        );
        assert!(v.prompt.contains("16 warps"), "{}", v.prompt);
    }
    // A column read of a tile with fewer than 32 rows has that many lanes, so that many wavefronts.
    for v in variants(&content, "l2-padding-cost") {
        let (rows, before) = (value(&v, "rows"), value(&v, "before"));
        let elem = value(&v, "elem");
        assert!(before <= rows.min(32.0), "rows {rows}: {before} wavefronts");
        assert_eq!(value(&v, "lanes"), rows.min(32.0));
        if rows == 16.0 && elem == 4.0 {
            assert!(
                v.explanation.contains("from 16 wavefronts"),
                "{}",
                v.explanation
            );
        }
    }
    // A register tile's accumulators fit in the registers it is given, with room to spare.
    for v in variants(&content, "l4-tiled-occupancy") {
        let (tile, regs) = (value(&v, "tile"), value(&v, "regs"));
        assert!(
            regs >= tile * tile / 256.0 + 16.0,
            "{tile}×{tile} in {regs} registers"
        );
    }
    // Shared memory and L1 are one level in both places; the AMD card counts lines of 128 bytes.
    let levels = &card(&content, "hier-levels").back;
    assert!(
        levels.contains("≈ 29") && levels.contains("≈ 39"),
        "{levels}"
    );
    let ladder_text = &variants(&content, "l1-latency-ladder")[0].explanation;
    assert!(ladder_text.contains("one on-chip level"), "{ladder_text}");
    let wave64 = (0..64).map(|t| 4 * t).collect::<Vec<i64>>();
    let lines = |start: i64| {
        let offsets = wave64.iter().map(|o| o + start).collect::<Vec<_>>();
        let (first, last) = (offsets[0] / 128, (offsets[63] + 3) / 128);
        last - first + 1
    };
    assert_eq!((lines(0), lines(4)), (2, 3));
    let amd = &card(&content, "amd-stride64").back;
    assert!(amd.contains("needs two") && amd.contains("three"), "{amd}");
    // Little's law: the warps needed at one load per thread, set against the 64 an SM holds.
    for v in variants(&content, "l5-littles-law") {
        assert!(
            !v.explanation.contains("warps each waiting"),
            "{}",
            v.explanation
        );
        let elem = match v.params.get("elem") {
            Some(warpdrill::ladder::variant::ParamValue::Number(n)) => *n,
            other => panic!("elem is {other:?}"),
        };
        let warps = (value(&v, "per_sm") / (32.0 * elem)).ceil();
        assert!(
            v.explanation.contains(&format!("{warps} warps of one"))
                && v.explanation.contains("the SM holds 64"),
            "{}",
            v.explanation
        );
    }
}

/// Every text file of the content, the translations, the kernels and the locales, by path.
fn texts() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for dir in [
        "content",
        "content/i18n/ko",
        "content/i18n/hi-Latn",
        "exercises",
        "exercises/i18n/ko",
        "exercises/i18n/hi-Latn",
        "kernels",
        "locales/en",
        "locales/ko",
        "locales/hi-Latn",
    ] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let text = std::fs::read_to_string(&path).unwrap();
                files.push((path, text));
            }
        }
    }
    files
}

/// Claims that were wrong, as they were written in each language.
const FORBIDDEN: &[&str] = &[
    // English
    "touch 32× the sectors",
    "caches and the non-saturated stride-1 baseline",
    "caches and the unsaturated stride-1 baseline",
    "Caches also help",
    "one extra sector per warp is cheap",
    "alignment costs lines, not sectors",
    "Volta and later GPUs fetch",
    "On Volta and later GPUs (sm_70+)",
    "Since Volta a 128-byte",
    "Since Volta the unit of fetch",
    "since Volta the memory system moves",
    "since Volta the GPU fetches 32-byte",
    "Kepler-era L1",
    "Kepler fetched whole",
    "(L2 hits)",
    "exactly why occupancy matters",
    "32× — about 268 µs",
    "it needs one or two",
    "a floor on the gain",
    "warps each waiting on a 128-byte load",
    "warps per scheduler keep it busy",
    "and uses 32 registers per thread",
    "32 registers leave the register file out",
    "Only the threads of that block",
    "4.8 TB/s GPU attains at most",
    "count the blocks 65 536 registers hold",
    "HBM3e ≈ {dram}. Each step outward",
    "25–60 %",
    "RDNA3 (gfx11)",
    "growing bank conflicts",
    // Korean
    "sector가 32배가 된다",
    "cache와, 포화되지 않은",
    "cache와, bandwidth를 다 쓰지 못하는",
    "cache도 도움이 된다",
    "sector 하나가 더 느는 것은 싸다",
    "정렬이 어긋나면 line은 늘지만 sector는 늘지 않는다",
    "Volta 이후 GPU가 L1/L2",
    "Volta 이후 GPU(sm_70+)",
    "Volta부터는 128바이트",
    "Volta부터 가져오는",
    "Volta부터 메모리 시스템은",
    "Volta부터 GPU는 32바이트",
    "Kepler 시절의 L1",
    "(L2 hit)",
    "바로 그래서 occupancy가 중요하다",
    "32배다. 약 268 µs",
    "1~2개면 된다",
    "이득의 하한",
    "128바이트 load를 기다리는 warp",
    "scheduler당 warp가 대략 몇 개",
    "thread당 register 32개를 쓴다",
    "그 block의 thread들만",
    "0.25 FLOP/B인 naive float matmul은 4.8 TB/s GPU에서",
    "register 65 536개에 block이 몇 개",
    "바깥으로 한 단계 나갈 때마다 앞 단계의 몇 배씩 비싸진다.\"",
    "RDNA3(gfx11)",
    // Hinglish
    "32× sectors touch karta hai",
    "caches aur non-saturated",
    "caches aur unsaturated",
    "Caches bhi madad karte hain",
    "har warp ka ek extra sector sasta",
    "alignment ki keemat lines mein lagti hai, sectors mein nahi",
    "Volta aur uske baad ke GPUs",
    "Volta se 128-byte",
    "Volta se fetch",
    "Volta se memory system",
    "Volta se GPU 32-byte",
    "Kepler-era",
    "isi wajah se occupancy matter karti hai",
    "lagbhag 268 µs",
    "ek ya do lagte",
    "gain ka floor",
    "har ek kisi 128-byte load ka wait",
    "kitne warps chahiye?",
    "har thread 32 registers use karta hai",
    "Sirf usi block ke threads",
    "zyada se zyada kitna attain karta hai",
    "65 536 registers mein kitne blocks aate hain",
    "Bahar ki taraf har step pichhle se kai guna mehenga padta hai.\"",
    "RDNA3 (gfx11)",
];

#[test]
fn no_text_in_any_language_repeats_a_corrected_claim() {
    let mut found = Vec::new();
    for (path, text) in texts() {
        for phrase in FORBIDDEN {
            if text.contains(phrase) {
                found.push(format!("{}: {phrase}", path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "corrected claims are back:\n{}",
        found.join("\n")
    );
}
