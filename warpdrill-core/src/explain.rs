//! One-line, plain-language explanations of an engine result ("why is it this number?").
//! Shared by the command line, the explorer and exercise feedback, in the learner's language
//! (`*_in`); [`coalescing`] and [`banks`] speak English, as `warpdrill calc` prints them.

use crate::engine::{BankAnalysis, Coalescing, Granularity, Pattern, WarpAccess, banks::BANKS};
use crate::format;
use crate::i18n::Lang;
use crate::t;

/// The fetch unit's name as the sentences use it: `sector` or `line` (a technical term, the same
/// in every language).
fn unit_name(granularity: Granularity) -> &'static str {
    match granularity {
        Granularity::Sector => "sector",
        Granularity::Line => "line",
    }
}

/// `n` units with the noun in agreement: `1 sector`, `4 sectors`, `sector 4개`.
fn units(lang: Lang, n: u64, unit: &str) -> String {
    t!(lang, "explain-units", n = n, unit = unit.to_string())
}

/// Why a global load costs what it costs, in English (what `warpdrill calc` prints).
pub fn coalescing(access: &WarpAccess, c: &Coalescing) -> String {
    coalescing_in(Lang::En, access, c)
}

/// Why a global load costs what it costs, in `lang`.
pub fn coalescing_in(lang: Lang, access: &WarpAccess, c: &Coalescing) -> String {
    let unit_one = unit_name(c.granularity);
    let size = c.segment_bytes;
    let elem = i64::from(access.elem_bytes);
    if c.active_lanes == 1 {
        return t!(
            lang,
            "explain-one-lane",
            elem = elem.to_string(),
            size = size.to_string(),
            unit = unit_one
        );
    }
    if let Pattern::Affine {
        stride_elems: 0, ..
    } = access.pattern
    {
        return t!(
            lang,
            "explain-stride-zero",
            elem = elem.to_string(),
            unit = unit_one
        );
    }
    let gap = match access.pattern {
        Pattern::Affine { stride_elems, .. } => {
            Some(stride_elems.unsigned_abs().saturating_mul(elem as u64))
        }
        Pattern::StructField { struct_bytes, .. } => Some(struct_bytes.unsigned_abs()),
        Pattern::TwoD {
            pitch_bytes,
            column: true,
            ..
        } => Some(pitch_bytes.unsigned_abs()),
        Pattern::TwoD { column: false, .. } => Some(elem as u64),
        Pattern::Explicit { .. } => None,
    };
    let minimum = c.bytes_requested.div_ceil(u64::from(size)).max(1);
    let transactions = u64::from(c.transactions());
    let used = c.bytes_requested.min(c.bytes_fetched).to_string();
    let fetched = c.bytes_fetched.to_string();
    if c.efficiency >= 1.0 && transactions == minimum {
        return t!(
            lang,
            "explain-coalesced",
            elem = elem.to_string(),
            requested = c.bytes_requested.to_string(),
            units = units(lang, transactions, unit_one)
        );
    }
    let mask = access.active_mask & crate::engine::full_mask(access.warp_size);
    let shifted = mask >> mask.trailing_zeros().min(63);
    let holes = mask != 0 && shifted & shifted.wrapping_add(1) != 0;
    match gap {
        Some(0) => t!(
            lang,
            "explain-broadcast",
            elem = elem.to_string(),
            unit = unit_one
        ),
        Some(gap) if gap < u64::from(size) && holes => t!(
            lang,
            "explain-holes",
            active = mask.count_ones().to_string(),
            warp = access.warp_size.to_string(),
            used = used,
            fetched = fetched
        ),
        Some(gap) if gap >= u64::from(size) => t!(
            lang,
            "explain-far-apart",
            gap = gap.to_string(),
            size = size.to_string(),
            unit = unit_one,
            units = units(lang, transactions, unit_one),
            fetched = fetched,
            requested = c.bytes_requested.to_string()
        ),
        Some(gap) if gap == elem as u64 && transactions > minimum => t!(
            lang,
            "explain-straddles",
            size = size.to_string(),
            units = units(lang, transactions, unit_one),
            minimum = minimum.to_string()
        ),
        Some(gap) if gap == elem as u64 => t!(
            lang,
            "explain-contiguous",
            requested = c.bytes_requested.to_string(),
            units = units(lang, minimum, unit_one),
            used = used,
            fetched = fetched
        ),
        Some(gap) => t!(
            lang,
            "explain-gap",
            gap = gap.to_string(),
            size = size.to_string(),
            unit = unit_one,
            elements = useful_elements(lang, c),
            useful = format::trim_float(c.efficiency * f64::from(size), 1)
        ),
        None => t!(
            lang,
            "explain-explicit",
            units = t!(
                lang,
                "explain-distinct-units",
                n = transactions,
                unit = unit_one
            ),
            used = used,
            fetched = fetched
        ),
    }
}

/// The lanes each fetched segment serves, as the diagram lists them: `(fewest, most)` over the
/// segments (12-byte structs, 4-byte field, 32-byte sectors: lanes 0-2 in the first sector, 3-5 in
/// the second, 6-7 in the third: `(2, 3)`).
pub fn lanes_per_segment(c: &Coalescing) -> (u64, u64) {
    let counts = c.segments.iter().map(|s| s.lanes.len() as u64);
    let fewest = counts.clone().min().unwrap_or(0);
    let most = counts.max().unwrap_or(0);
    (fewest, most)
}

/// `3 useful elements`, or `2–3 useful elements` when segments differ, counted from the segments the
/// diagram draws.
fn useful_elements(lang: Lang, c: &Coalescing) -> String {
    let (fewest, most) = lanes_per_segment(c);
    let count = if fewest == most {
        most.to_string()
    } else {
        format!("{fewest}–{most}")
    };
    t!(lang, "explain-useful-elements", n = most, count = count)
}

/// Why a shared-memory load takes its wavefronts, in English (what `warpdrill calc` prints).
pub fn banks(access: &WarpAccess, b: &BankAnalysis) -> String {
    banks_in(Lang::En, access, b)
}

/// Why a shared-memory load or store takes its wavefronts, in `lang` (an 8-byte store to one
/// address: "8-byte stores are served in 2 phases of 16 lanes (stores never merge phases); …").
pub fn banks_in(lang: Lang, access: &WarpAccess, b: &BankAnalysis) -> String {
    let store = b.op == crate::engine::Op::Store;
    let phases = if b.ideal_wavefronts > 1 {
        let elem = access.elem_bytes.to_string();
        let count = b.ideal_wavefronts.to_string();
        let lanes = b.phase_lanes.to_string();
        let phases = if store {
            t!(
                lang,
                "explain-phases-store",
                elem = elem,
                phases = count,
                lanes = lanes
            )
        } else {
            t!(
                lang,
                "explain-phases",
                elem = elem,
                phases = count,
                lanes = lanes
            )
        };
        if store && access.elem_bytes >= 8 {
            // Where a load's lane pairs would merge phases, a store's never do (§2b).
            t!(lang, "explain-phases-store-plain", phases = phases)
        } else if b.merged {
            t!(lang, "explain-phases-merged", phases = phases)
        } else {
            t!(lang, "explain-phases-plain", phases = phases)
        }
    } else {
        String::new()
    };
    if b.bank_conflicts == 0 {
        let why = if b.broadcast {
            t!(lang, "explain-banks-broadcast")
        } else {
            t!(lang, "explain-banks-distinct")
        };
        return t!(
            lang,
            "explain-no-conflict",
            phases = phases,
            why = why,
            wavefronts = t!(
                lang,
                "explain-wavefronts",
                n = b.wavefronts,
                vendor = b.vendor.key()
            )
        );
    }
    let full_warp = access.active_mask & crate::engine::full_mask(access.warp_size)
        == crate::engine::full_mask(access.warp_size);
    if let Pattern::Affine { stride_elems, .. } = access.pattern
        && access.elem_bytes == 4
        && b.ideal_wavefronts == 1
        && full_warp
        && access.warp_size == BANKS
    {
        let degree = gcd(stride_elems.unsigned_abs(), u64::from(BANKS));
        return t!(
            lang,
            "explain-stride-gcd",
            stride = stride_elems.unsigned_abs().to_string(),
            degree = degree.to_string()
        );
    }
    let (bank, words) = b.worst_bank().unwrap_or((0, 1));
    t!(
        lang,
        "explain-worst-bank",
        phases = phases,
        bank = bank.to_string(),
        words = words.to_string(),
        wavefronts = b.wavefronts.to_string(),
        ideal = b.ideal_wavefronts.to_string(),
        degree = format::trim_float(b.conflict_degree, 2),
        vendor = b.vendor.key()
    )
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Arch, Granularity, bank_conflicts, coalesce};

    fn why_global(access: WarpAccess) -> String {
        coalescing(&access, &coalesce(&access, Granularity::Sector).unwrap())
    }

    fn why_shared(access: WarpAccess) -> String {
        banks(
            &access,
            &bank_conflicts(&access, Arch::default_arch()).unwrap(),
        )
    }

    #[test]
    fn partial_negative_and_single_lane_explanations_agree_with_their_numbers() {
        // 20 lanes × 4 B from byte 0: 80 B need 3 sectors and take 3 — nothing straddles.
        let first20 = why_global(WarpAccess::affine(4, 1, 0).with_mask(0xf_ffff));
        assert!(!first20.contains("instead of"), "{first20}");
        assert!(
            first20.contains("80 useful bytes need at least 3 sectors"),
            "{first20}"
        );
        // Stride −1 from element 0 spans bytes −124 … 3: 5 sectors where 4 would do.
        let backwards = why_global(WarpAccess::affine(4, -1, 0));
        assert!(backwards.contains("5 sectors instead of 4"), "{backwards}");
        // One lane: no broadcast, no neighbours — one sector for 4 bytes.
        let one = why_global(WarpAccess::affine(4, 0, 0).with_mask(1));
        assert!(
            one.contains("one active lane") && !one.contains("broadcast"),
            "{one}"
        );
        // Counts agree with their nouns, and with the sectors drawn: 8-byte elements 24 B apart put
        // lanes 0 and 1 in the first sector, lane 2 alone in the second.
        let eight_bytes = why_global(WarpAccess::affine(8, 3, 0));
        assert!(
            eight_bytes.contains("1–2 useful elements,"),
            "{eight_bytes}"
        );
        let explicit = why_global(WarpAccess::explicit(4, vec![0, 4, 8, 12]));
        assert!(explicit.contains("touch 1 distinct sector:"), "{explicit}");
    }

    #[test]
    fn global_explanations_name_the_cause() {
        assert!(why_global(WarpAccess::affine(4, 1, 0)).contains("perfectly coalesced"));
        assert!(
            why_global(WarpAccess::affine(4, 1, 1)).contains("straddles 5 sectors instead of 4")
        );
        assert!(why_global(WarpAccess::affine(4, 32, 0)).contains("its own sector"));
        assert!(why_global(WarpAccess::affine(4, 2, 0)).contains("16 of every 32 bytes"));
        assert!(why_global(WarpAccess::affine(4, 0, 0)).contains("broadcast"));
        let odd = WarpAccess::affine(4, 1, 0).with_mask(0xaaaa_aaaa);
        assert!(why_global(odd).contains("only 16 of 32 lanes are active"));
        let half = WarpAccess::affine(4, 1, 0).with_mask(0xffff);
        assert!(why_global(half).contains("perfectly coalesced"));
    }

    #[test]
    fn a_zero_gap_is_a_broadcast_not_a_division_by_zero() {
        // The engine refuses a column walk of pitch 0, but the explanation must not divide by the gap
        // whatever result it is handed.
        let row = WarpAccess::affine(4, 1, 0);
        let c = coalesce(&row, Granularity::Sector).unwrap();
        let column = WarpAccess {
            pattern: Pattern::TwoD {
                pitch_bytes: 0,
                column: true,
                row: 0,
                col: 0,
                base_bytes: 0,
            },
            ..row
        };
        let mut partial = c.clone();
        partial.efficiency = 0.5;
        assert!(coalescing(&column, &partial).contains("broadcast"));
    }

    #[test]
    fn shared_explanations_name_the_cause() {
        assert!(why_shared(WarpAccess::affine(4, 2, 0)).contains("2-way conflict"));
        assert!(why_shared(WarpAccess::affine(4, 33, 0)).contains("no conflict"));
        assert!(why_shared(WarpAccess::affine(4, 0, 0)).contains("broadcast"));
        assert!(why_shared(WarpAccess::affine(8, 32, 0)).contains("bank 0 must deliver 16"));
        // With 12 lanes at stride 4 words only lanes 0 and 8 (and so on) meet: 2-way, not gcd(4, 32).
        let partial = WarpAccess::affine(4, 4, 0).with_mask(0xfff);
        assert!(
            why_shared(partial).contains("2 distinct words"),
            "{}",
            why_shared(WarpAccess::affine(4, 4, 0).with_mask(0xfff))
        );
    }

    #[test]
    fn every_language_counts_with_its_own_words() {
        // Misaligned by one element: 5 sectors instead of 4.
        let access = WarpAccess::affine(4, 1, 1);
        let c = coalesce(&access, Granularity::Sector).unwrap();
        assert_eq!(
            coalescing_in(Lang::En, &access, &c),
            coalescing(&access, &c)
        );
        let ko = coalescing_in(Lang::Ko, &access, &c);
        assert!(
            ko.contains("sector 5개") && ko.contains("4개가 아니라"),
            "{ko}"
        );
        let hi = coalescing_in(Lang::HiLatn, &access, &c);
        assert!(
            hi.contains("5 sectors") && hi.contains("4 ki jagah"),
            "{hi}"
        );
        // 32 one-byte lanes fill one sector: "1 sector", never "1 sectors".
        let bytes = WarpAccess::affine(1, 1, 0);
        let c = coalesce(&bytes, Granularity::Sector).unwrap();
        let en = coalescing(&bytes, &c);
        assert!(en.contains("fill 1 sector exactly"), "{en}");
        let ko = coalescing_in(Lang::Ko, &bytes, &c);
        assert!(ko.contains("sector 1개"), "{ko}");
        let hi = coalescing_in(Lang::HiLatn, &bytes, &c);
        assert!(hi.contains("1 sector ko"), "{hi}");
    }

    #[test]
    fn shared_explanations_in_korean_and_hinglish_keep_the_numbers() {
        let access = WarpAccess::affine(4, 2, 0);
        let b = bank_conflicts(&access, Arch::default_arch()).unwrap();
        let ko = banks_in(Lang::Ko, &access, &b);
        assert!(
            ko.contains("gcd(2, 32) = 2") && ko.contains("2-way conflict"),
            "{ko}"
        );
        let doubles = WarpAccess::affine(8, 1, 0);
        let b = bank_conflicts(&doubles, Arch::default_arch()).unwrap();
        let ko = banks_in(Lang::Ko, &doubles, &b);
        assert!(
            ko.contains("phase로 처리된다") && ko.contains("wavefront 2개"),
            "{ko}"
        );
        let hi = banks_in(Lang::HiLatn, &doubles, &b);
        assert!(hi.contains("koi conflict nahi, 2 wavefronts"), "{hi}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// "N … instead of M" always compares two different numbers, the larger first, and a
        /// "perfectly coalesced" pattern wastes nothing: every sentence is derived from its numbers.
        #[test]
        fn every_why_agrees_with_the_numbers(
            elem in proptest::sample::select(vec![1u32, 2, 4, 8, 16]),
            stride in -70i64..70,
            offset in -40i64..40,
            mask in proptest::prelude::any::<u32>(),
        ) {
            let access = WarpAccess::affine(elem, stride, offset).with_mask(u64::from(mask) | 1);
            let c = coalesce(&access, Granularity::Sector).unwrap();
            let why = coalescing(&access, &c);
            if let Some(at) = why.find(" instead of ") {
                let before: u64 = why[..at]
                    .split_whitespace()
                    .rev()
                    .find_map(|w| w.parse().ok())
                    .expect("a number before `instead of`");
                let after: u64 = why[at + 12..]
                    .split(|ch: char| !ch.is_ascii_digit())
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("a number after `instead of`");
                proptest::prop_assert!(before > after, "{}", why);
                proptest::prop_assert_eq!(before, u64::from(c.transactions()), "{}", why);
            }
            if why.contains("perfectly coalesced") {
                proptest::prop_assert!(c.efficiency >= 1.0, "{}", why);
            }
            proptest::prop_assert!(!why.contains("(s)"), "{}", why);
            proptest::prop_assert!(!why.contains(" 1 sectors") && !why.contains(" 1 distinct sectors"), "{}", why);
        }
    }
}
