//! The predicted time in words: the head line, each term with its figures, the baselines.

use crate::engine::timing::{Gpu, Limiter, Prediction};
use crate::i18n::Lang;
use crate::t;

/// One term of the prediction, worded.
#[derive(Debug, Clone, PartialEq)]
pub struct TermText {
    /// Its short label (`DRAM`, `latency`, …).
    pub label: String,
    /// Its milliseconds.
    pub ms: f64,
    /// The figures behind it, one line.
    pub detail: String,
    /// Whether it is the limiter.
    pub limiter: bool,
}

/// The prediction, worded.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeText {
    /// `predicted time on NVIDIA H200: 0.104 ms, limited by …`.
    pub head: String,
    /// Said for a GPU whose figures were not measured on it.
    pub not_calibrated: Option<String>,
    /// The terms, largest first, then the launch overhead.
    pub terms: Vec<TermText>,
    /// How the terms combine.
    pub combine: String,
    /// The two baselines, each with why it misleads.
    pub baselines: [String; 2],
}

/// Milliseconds with three significant figures (`0.104`, `3.13`, `12.5`).
pub fn ms_text(ms: f64) -> String {
    if !ms.is_finite() {
        return "?".into();
    }
    let digits = if ms >= 100.0 {
        0
    } else if ms >= 10.0 {
        1
    } else if ms >= 1.0 {
        2
    } else if ms >= 0.1 {
        3
    } else if ms >= 0.01 {
        4
    } else {
        5
    };
    format!("{ms:.digits$}")
}

/// A count with an SI prefix: `805 M`, `131 k`, `60`.
fn count_text(v: f64) -> String {
    crate::format::si(v.round().max(0.0)).trim_end().to_string()
}

fn limiter_name(l: Limiter, lang: Lang) -> String {
    match l {
        Limiter::Dram => t!(lang, "timing-limiter-dram"),
        Limiter::Latency => t!(lang, "timing-limiter-latency"),
        Limiter::Dispatch => t!(lang, "timing-limiter-dispatch"),
        Limiter::L1 => t!(lang, "timing-limiter-l1"),
        Limiter::L2 => t!(lang, "timing-limiter-l2"),
        Limiter::Barriers => t!(lang, "timing-limiter-barriers"),
        Limiter::Issue => t!(lang, "timing-limiter-issue"),
    }
}

fn label(l: Limiter, lang: Lang) -> String {
    match l {
        Limiter::Dram => t!(lang, "timing-label-dram"),
        Limiter::Latency => t!(lang, "timing-label-latency"),
        Limiter::Dispatch => t!(lang, "timing-label-dispatch"),
        Limiter::L1 => t!(lang, "timing-label-l1"),
        Limiter::L2 => t!(lang, "timing-label-l2"),
        Limiter::Barriers => t!(lang, "timing-label-barriers"),
        Limiter::Issue => t!(lang, "timing-label-issue"),
    }
}

/// Words `p`, predicted on `gpu`, in `lang`.
pub fn time_text(p: &Prediction, gpu: &Gpu, lang: Lang) -> TimeText {
    let tm = &p.terms;
    let mut terms: Vec<TermText> = tm
        .list()
        .iter()
        .map(|&(l, ms)| {
            let detail = match l {
                Limiter::Dram => t!(
                    lang,
                    "timing-term-dram",
                    mb = format!("{:.1}", (tm.dram.read_bytes + tm.dram.write_bytes) / 1e6),
                    read = format!("{:.1}", tm.dram.read_bytes / 1e6),
                    write = format!("{:.1}", tm.dram.write_bytes / 1e6),
                    achieved = format!("{:.0}", tm.dram.achieved_gbps),
                    peak = format!("{:.0}", tm.dram.peak_gbps)
                ),
                Limiter::Latency => {
                    let lt = &tm.latency;
                    t!(
                        lang,
                        "timing-term-latency",
                        warps = lt.resident_warps_per_sm,
                        blocks = lt.resident_blocks_per_sm,
                        loads = format!("{:.1}", lt.loads_in_flight_per_warp),
                        kb = format!("{:.1}", lt.bytes_in_flight_per_sm / 1024.0),
                        cycles = format!("{:.0}", lt.round_trip_cycles),
                        rounds = format!("{:.1}", lt.round_trips_per_block),
                        phases = format!("{:.0}", lt.barrier_phases),
                        life = count_text(lt.block_cycles),
                        waves = format!("{:.1}", lt.waves)
                    )
                }
                Limiter::Dispatch => t!(
                    lang,
                    "timing-term-dispatch",
                    blocks = count_text(tm.dispatch.count),
                    ns = format!("{:.2}", gpu.block_dispatch_s * 1e9)
                ),
                Limiter::L1 => t!(lang, "timing-term-l1", count = count_text(tm.l1.count)),
                Limiter::L2 => t!(lang, "timing-term-l2", count = count_text(tm.l2.count)),
                Limiter::Barriers => {
                    t!(
                        lang,
                        "timing-term-barriers",
                        count = count_text(tm.barriers.count)
                    )
                }
                Limiter::Issue => t!(
                    lang,
                    "timing-term-issue",
                    count = count_text(tm.issue.count)
                ),
            };
            TermText {
                label: label(l, lang),
                ms,
                detail,
                limiter: l == p.limiter,
            }
        })
        .collect();
    terms.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    terms.push(TermText {
        label: t!(lang, "timing-label-launch"),
        ms: tm.launch_ms,
        detail: t!(lang, "timing-term-launch"),
        limiter: false,
    });
    TimeText {
        head: t!(
            lang,
            "timing-head",
            gpu = gpu.name,
            ms = ms_text(p.ms),
            limiter = limiter_name(p.limiter, lang)
        ),
        not_calibrated: (!p.calibrated).then(|| t!(lang, "timing-not-calibrated", gpu = gpu.name)),
        terms,
        combine: t!(lang, "timing-combine"),
        baselines: [
            t!(
                lang,
                "timing-baseline-roofline",
                ms = ms_text(p.baselines.roofline_ms)
            ),
            t!(
                lang,
                "timing-baseline-copy",
                ms = ms_text(p.baselines.copy_bandwidth_ms)
            ),
        ],
    }
}

/// The prediction as text lines for the text report.
pub fn render(p: &Prediction, gpu: &Gpu, lang: Lang) -> String {
    use crate::text::pad;
    use std::fmt::Write;
    let w = time_text(p, gpu, lang);
    let mut out = String::new();
    let _ = writeln!(out, "{}", w.head);
    if let Some(n) = &w.not_calibrated {
        let _ = writeln!(out, "  {n}");
    }
    let width = w
        .terms
        .iter()
        .map(|t| crate::text::columns(&t.label))
        .max()
        .unwrap_or(0)
        + 2;
    for term in &w.terms {
        let mark = if term.limiter { "▶" } else { " " };
        let _ = writeln!(
            out,
            " {mark}{}{:>9} ms  {}",
            pad(&term.label, width),
            ms_text(term.ms),
            term.detail
        );
    }
    let _ = writeln!(out, "  {}", w.combine);
    let _ = writeln!(out, "{}", t!(lang, "timing-baselines"));
    for b in &w.baselines {
        let _ = writeln!(out, "  {b}");
    }
    out
}
