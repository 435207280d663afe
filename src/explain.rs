//! One-line, plain-language explanations of an engine result ("why is it this number?").
//! Shared by the command line, the explorer and exercise feedback.

use crate::engine::{BankAnalysis, Coalescing, Pattern, WarpAccess, banks::BANKS};
use crate::format;

/// Why a global load costs what it costs.
pub fn coalescing(access: &WarpAccess, c: &Coalescing) -> String {
    let unit = c.granularity.plural();
    let unit_one = &unit[..unit.len() - 1];
    let size = c.segment_bytes;
    let elem = i64::from(access.elem_bytes);
    if c.active_lanes == 1 {
        return format!(
            "one active lane reads one {elem}-byte element: a whole {size}-byte {unit_one} is fetched for it"
        );
    }
    if let Pattern::Affine {
        stride_elems: 0, ..
    } = access.pattern
    {
        return format!(
            "stride 0: every lane reads the same {elem}-byte element, so one {unit_one} serves the whole warp (broadcast)"
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
    if c.efficiency >= 1.0 && u64::from(c.transactions()) == minimum {
        return format!(
            "lanes read neighbouring {elem}-byte elements: {} useful bytes fill {} {} exactly — perfectly coalesced",
            c.bytes_requested,
            c.transactions(),
            unit
        );
    }
    let mask = access.active_mask & crate::engine::full_mask(access.warp_size);
    let shifted = mask >> mask.trailing_zeros().min(63);
    let holes = mask != 0 && shifted & shifted.wrapping_add(1) != 0;
    match gap {
        Some(0) => format!(
            "every lane reads the same {elem}-byte element, so one {unit_one} serves the whole warp (broadcast)"
        ),
        Some(gap) if gap < u64::from(size) && holes => format!(
            "only {} of {} lanes are active and they are not neighbours: the bytes between them are fetched but unused ({} of {} B)",
            mask.count_ones(),
            access.warp_size,
            c.bytes_requested.min(c.bytes_fetched),
            c.bytes_fetched
        ),
        Some(gap) if gap >= u64::from(size) => format!(
            "lanes are {gap} B apart (≥ {size} B), so every active lane needs its own {unit_one}: {} {unit} fetch {} B for {} useful bytes",
            c.transactions(),
            c.bytes_fetched,
            c.bytes_requested
        ),
        Some(gap) if gap == elem as u64 && u64::from(c.transactions()) > minimum => format!(
            "contiguous, but the span does not start on a {size}-byte boundary: it straddles {} instead of {minimum}",
            format::count(c.transactions(), unit_one)
        ),
        Some(gap) if gap == elem as u64 => format!(
            "contiguous: {} useful bytes need at least {}, and the lanes touch no more; the last is only partly used ({} of {} fetched bytes are used)",
            c.bytes_requested,
            format::count(minimum, unit_one),
            c.bytes_requested.min(c.bytes_fetched),
            c.bytes_fetched
        ),
        Some(gap) => format!(
            "lanes are {gap} B apart: each {size}-byte {unit_one} holds only {}, so {} of every {size} bytes fetched are used",
            format::count(
                u64::from(size).checked_div(gap).unwrap_or(1).max(1),
                "useful element"
            ),
            format::trim_float(c.efficiency * f64::from(size), 1)
        ),
        None => format!(
            "the active lanes touch {}: {} of {} fetched bytes are used",
            format::count(c.transactions(), &format!("distinct {unit_one}")),
            c.bytes_requested.min(c.bytes_fetched),
            c.bytes_fetched
        ),
    }
}

/// Why a shared-memory load takes its wavefronts.
pub fn banks(access: &WarpAccess, b: &BankAnalysis) -> String {
    let phases = if b.ideal_wavefronts > 1 {
        format!(
            "{}-byte loads are served in {} phases of {} lanes{}; ",
            access.elem_bytes,
            b.ideal_wavefronts,
            b.phase_lanes,
            if b.merged {
                " (lane pairs share addresses, so phases merge)"
            } else {
                ""
            }
        )
    } else {
        String::new()
    };
    if b.bank_conflicts == 0 {
        let why = if b.broadcast {
            "lanes that read the same word share it (broadcast), and no bank serves two different words"
        } else {
            "every bank serves at most one distinct word per phase"
        };
        return format!(
            "{phases}{why} → no conflict, {}",
            format::count(b.wavefronts, "wavefront")
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
        return format!(
            "stride {} words: gcd({}, 32) = {degree}, so every bank used serves {degree} distinct words → {degree}-way conflict",
            stride_elems.unsigned_abs(),
            stride_elems.unsigned_abs()
        );
    }
    let (bank, words) = b.worst_bank().unwrap_or((0, 1));
    format!(
        "{phases}bank {bank} must deliver {words} distinct words one after another → {} wavefronts instead of {} ({}-way)",
        b.wavefronts,
        b.ideal_wavefronts,
        format::trim_float(b.conflict_degree, 2)
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
        // Counts agree with their nouns.
        let eight_bytes = why_global(WarpAccess::affine(8, 3, 0));
        assert!(eight_bytes.contains("1 useful element,"), "{eight_bytes}");
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
