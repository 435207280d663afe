//! A puzzle check told in the learner's language: correctness, the per-line heat of the
//! performance run and each target, as the puzzle screen, `puzzle check` and a served lab's
//! verdict show it.

use super::Puzzle;
use super::check::Outcome;
use crate::i18n::Lang;
use crate::t;
use crate::text::pad;

/// `n=33` for a size.
pub fn size_text(size: &std::collections::BTreeMap<String, i64>) -> String {
    size.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A figure: `32.0`, `0.0153`.
pub fn figure(v: f64) -> String {
    if v.abs() >= 10.0 || v == v.trunc() {
        format!("{v:.1}")
    } else {
        format!("{v:.4}")
    }
}

/// A race or an out-of-bounds access in the learner's language.
pub fn detail_text(d: &super::check::Detail, lang: Lang) -> String {
    use super::check::Detail;
    let dims = |d: [u32; 3]| format!("({},{},{})", d[0], d[1], d[2]);
    let kind = |write: bool| {
        if write {
            t!(lang, "puzzle-access-write")
        } else {
            t!(lang, "puzzle-access-read")
        }
    };
    match d {
        Detail::Race(r) => t!(
            lang,
            "puzzle-race-detail",
            space = r.space,
            array = r.array.as_str(),
            byte = r.byte,
            first = kind(r.first.write),
            first_line = r.first.line,
            first_thread = dims(r.first.thread),
            first_block = dims(r.first.block),
            second = kind(r.second.write),
            second_line = r.second.line,
            second_thread = dims(r.second.thread),
            second_block = dims(r.second.block)
        ),
        Detail::OutOfBounds(crate::analyze::exec::ExecError::OutOfBounds {
            space,
            array,
            index,
            elements,
            write,
            block,
            thread,
            line,
        }) => t!(
            lang,
            "puzzle-oob-detail",
            line = *line,
            access = kind(*write),
            array = array.as_str(),
            index = *index,
            space = *space,
            elements = *elements,
            thread = dims(*thread),
            block = dims(*block)
        ),
        // Any other stop is told by its own message.
        Detail::OutOfBounds(other) => other.to_string(),
    }
}

/// The outcome of a check as lines of text: correctness, the per-line heat of the performance run
/// (`▲` on a hot line, each access cut to `code_width` columns), each target met or missed with
/// its figure. The command line prints the same.
pub fn outcome_lines(p: &Puzzle, o: &Outcome, code_width: usize, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    if o.correct {
        let sizes: Vec<String> = p.sizes.iter().map(size_text).collect();
        out.push(t!(
            lang,
            "puzzle-correct",
            count = o.sizes_run,
            sizes = sizes.join(", ")
        ));
    } else {
        if let Some(w) = &o.first_wrong {
            out.push(t!(
                lang,
                "puzzle-first-wrong",
                size = size_text(&w.size),
                array = w.array.as_str(),
                index = w.index,
                got = figure(w.got),
                expected = figure(w.expected)
            ));
        }
        if let Some(e) = &o.error {
            let size = size_text(&e.size);
            let translated = e.detail.as_ref().map(|d| detail_text(d, lang));
            let message = translated.as_deref().unwrap_or(e.message.as_str());
            out.push(match e.kind {
                "race" => t!(lang, "puzzle-race", size = size, message = message),
                "out_of_bounds" => {
                    t!(lang, "puzzle-out-of-bounds", size = size, message = message)
                }
                _ => t!(lang, "puzzle-run-error", size = size, message = message),
            });
        }
    }
    out.push(String::new());
    out.push(t!(lang, "puzzle-perf-head", size = size_text(&p.perf)));
    for h in &o.lines {
        let hot = (h.space == "global" && h.per_request > h.ideal + 1e-9) || h.conflicts > 0;
        let figures = if h.space == "global" {
            t!(
                lang,
                "puzzle-heat-global",
                per = figure(h.per_request),
                ideal = figure(h.ideal)
            )
        } else {
            t!(
                lang,
                "puzzle-heat-shared",
                per = figure(h.per_request),
                conflicts = h.conflicts
            )
        };
        let code = h.text.as_str();
        out.push(format!(
            "{} {:>4}  {}  {}",
            if hot { "▲" } else { " " },
            h.line,
            pad(&figures, 36),
            crate::text::cut(code, code_width.max(8))
        ));
    }
    out.push(String::new());
    out.push(t!(lang, "puzzle-targets"));
    for tr in &o.targets {
        let mark = if tr.met {
            t!(lang, "puzzle-met")
        } else {
            t!(lang, "puzzle-missed")
        };
        // Conflicts are a count; the other figures have decimals.
        let show = |v: f64| {
            if tr.name == "bank_conflicts" {
                format!("{v:.0}")
            } else {
                figure(v)
            }
        };
        let fig = tr.figure.map_or("—".to_string(), show);
        out.push(format!(
            "  [{mark}] {}: {fig} ≤ {}",
            target_name(tr, o, lang),
            show(tr.target)
        ));
    }
    out
}

/// "Solved." or "Not solved yet."
pub fn verdict(o: &Outcome, lang: Lang) -> String {
    if o.solved {
        t!(lang, "puzzle-solved")
    } else {
        t!(lang, "puzzle-not-solved")
    }
}

fn target_name(tr: &super::check::TargetResult, o: &Outcome, lang: Lang) -> String {
    match tr.name {
        "sectors_per_request" => t!(
            lang,
            "puzzle-target-sectors",
            line = tr.line.map_or("—".to_string(), |l| l.to_string())
        ),
        "bank_conflicts" => t!(lang, "puzzle-target-conflicts"),
        _ => t!(
            lang,
            "puzzle-target-time",
            reference = o.reference_ms.map_or("—".to_string(), figure)
        ),
    }
}

/// The reference's figures: worst sectors per request, bank conflicts, predicted time.
pub fn reference_figures(r: &crate::analyze::Report, lang: Lang) -> String {
    let heat = super::check::heat(r);
    let worst = heat
        .iter()
        .filter(|h| h.space == "global")
        .map(|h| h.per_request)
        .fold(0.0f64, f64::max);
    let conflicts = r.totals.shared_load_conflicts + r.totals.shared_store_conflicts;
    let mut figures = vec![
        ("sectors_per_request", worst),
        ("bank_conflicts", conflicts as f64),
    ];
    if let Some(t) = r.time.as_ref() {
        figures.push(("time_ms", t.ms));
    }
    named_figures(figures, lang)
}

/// Figures kept under their target's name ("sectors_per_request", "bank_conflicts",
/// "time_ms"), written with the names a reader knows: "sectors per request 4.0, bank
/// conflicts 0, predicted H200 time 0.0173 ms", in the order the targets are listed.
pub fn named_figures<'a>(figures: impl IntoIterator<Item = (&'a str, f64)>, lang: Lang) -> String {
    let rank = |name: &str| {
        ["sectors_per_request", "bank_conflicts", "time_ms"]
            .iter()
            .position(|n| *n == name)
            .unwrap_or(usize::MAX)
    };
    let mut figures: Vec<(&str, f64)> = figures.into_iter().collect();
    figures.sort_by_key(|(name, _)| rank(name));
    figures
        .into_iter()
        .map(|(name, v)| match name {
            "sectors_per_request" => t!(lang, "puzzle-figure-sectors", value = figure(v)),
            "bank_conflicts" => t!(lang, "puzzle-figure-conflicts", value = format!("{v:.0}")),
            "time_ms" => t!(lang, "puzzle-figure-time", value = figure(v)),
            other => format!("{other} {}", figure(v)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
