//! Checking a learner's kernel against a puzzle: correctness on every small size (run with data,
//! beside the reference kernel on the same inputs), then the performance run graded with the
//! analyser and the timing model against the reference's figures.

use super::{BufferSpec, Elem, Init, Puzzle};
use crate::analyze::exec::{self, Buffers, ExecError, Limits, Race};
use crate::analyze::{self, Launch, Options, Report};
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::BTreeMap;

/// The scalar parameters of a size as defines.
pub fn defines(size: &BTreeMap<String, i64>) -> Vec<(String, String)> {
    size.iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect()
}

/// The first element that differs from the reference's.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FirstWrong {
    /// The output array.
    pub array: String,
    /// The element index.
    pub index: usize,
    /// The reference's value.
    pub expected: f64,
    /// The learner's.
    pub got: f64,
    /// The size it was run at.
    pub size: BTreeMap<String, i64>,
}

/// Why the learner's kernel did not run to the end, or what it did wrong besides its values.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunError {
    /// `out_of_bounds`, `race`, `division_by_zero`, `divergent_barrier`, `too_long`, `memory`,
    /// `unsupported`.
    pub kind: &'static str,
    /// The message, English.
    pub message: String,
    /// The line it names (the later one of a race).
    pub line: Option<u32>,
    /// The earlier line of a race.
    pub other_line: Option<u32>,
    /// The array.
    pub array: Option<String>,
    /// The size it was run at.
    pub size: BTreeMap<String, i64>,
    /// The race or the out-of-bounds access itself, for the screens to say in the learner's
    /// language (`message` is the English, for JSON).
    #[serde(skip)]
    pub detail: Option<Detail>,
}

/// What a race or an out-of-bounds access was, figure by figure.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// Two threads on one address, one writing, no barrier between.
    Race(Race),
    /// An access outside its array ([`ExecError::OutOfBounds`]).
    OutOfBounds(ExecError),
}

/// One target, met or missed.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TargetResult {
    /// `sectors_per_request`, `bank_conflicts`, `time_ms`.
    pub name: &'static str,
    /// The learner's figure (`None` when it cannot be computed: a block that cannot run).
    pub figure: Option<f64>,
    /// The figure to reach (at most).
    pub target: f64,
    /// Whether it is reached.
    pub met: bool,
    /// The line the figure comes from (the worst access), where there is one.
    pub line: Option<u32>,
}

/// One access's figures in the performance run: the per-line heat.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LineHeat {
    /// Source line.
    pub line: u32,
    /// The access as written.
    pub text: String,
    /// `global` or `shared`.
    pub space: &'static str,
    /// Global: sectors per request; shared: wavefronts per instruction.
    pub per_request: f64,
    /// The fewest a full warp of this width needs.
    pub ideal: f64,
    /// Shared: bank conflicts (extra wavefronts).
    pub conflicts: u64,
    /// Why, in English.
    pub why: String,
}

/// The outcome of a check.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The puzzle's id.
    pub puzzle: String,
    /// Every small size gave the reference's output, without a race or a bad access.
    pub correct: bool,
    /// The first wrong element, if any.
    pub first_wrong: Option<FirstWrong>,
    /// The race, out-of-bounds access or other run error, if any.
    pub error: Option<RunError>,
    /// The targets of the performance run.
    pub targets: Vec<TargetResult>,
    /// The predicted H200 time of the performance run, ms.
    pub predicted_ms: Option<f64>,
    /// The reference's, ms.
    pub reference_ms: Option<f64>,
    /// Correct and every target met.
    pub solved: bool,
    /// The sizes run for correctness.
    pub sizes_run: usize,
    /// Per-access heat of the performance run, in source order.
    pub lines: Vec<LineHeat>,
    /// The analyser's report of the performance run.
    #[serde(skip)]
    pub report: Option<Report>,
}

/// Why a check could not be made: the learner's file is not a kernel the analyser reads, or the
/// puzzle itself is broken. Exit 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CheckError(pub String);

impl CheckError {
    /// The message with the learner's file called by its own name: a check reads the source as
    /// `ID.cu` (so that the same source gives the same, remembered outcome wherever it came
    /// from), and a file handed in as `work/bad.cu` is named so.
    pub fn naming(self, p: &Puzzle, file: &str) -> CheckError {
        let written = format!("{}.cu:", p.id);
        match self.0.strip_prefix(&written) {
            Some(rest) => CheckError(format!("{file}:{rest}")),
            None => self,
        }
    }
}

/// The launch of `source` for `size`: the `// launch:` line's, each grid dimension scaled from the
/// size the line is written for (its `-D`, else the performance size) to `size`, rounded up.
pub fn launch_for(
    p: &Puzzle,
    source: &str,
    size: &BTreeMap<String, i64>,
) -> Result<Launch, String> {
    let written = analyze::launch_line(source)
        .map_err(|e| e.to_string())?
        .ok_or("the file needs a first line `// launch: --grid … --block …`")?;
    let line_defines = analyze::launch_defines(source).map_err(|e| e.to_string())?;
    let mut grid = written.grid;
    for (k, name) in p.grid_scale.iter().enumerate().take(3) {
        if name.is_empty() {
            continue;
        }
        let base = line_defines
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.parse::<i64>().ok())
            .or_else(|| p.perf.get(name).copied())
            .unwrap_or(1)
            .max(1);
        let want = size.get(name).copied().unwrap_or(base).max(1);
        let scaled = (u64::from(grid[k]) * want as u64)
            .div_ceil(base as u64)
            .max(1);
        grid[k] = u32::try_from(scaled.min(i32::MAX as u64)).unwrap_or(u32::MAX);
    }
    Ok(Launch {
        grid,
        block: written.block,
    })
}

/// The inputs of a size, every buffer filled by its generator.
pub fn inputs(p: &Puzzle, size: &BTreeMap<String, i64>) -> Result<Buffers, String> {
    let mut b = Buffers::default();
    for (k, spec) in p.buffers.iter().enumerate() {
        let n = spec.elements(size)?;
        if n > 1 << 24 {
            return Err(format!(
                "`{}`: {n} elements is too many for a correctness run",
                spec.name
            ));
        }
        fill(&mut b, spec, n, k as u64);
    }
    Ok(b)
}

fn fill(b: &mut Buffers, spec: &BufferSpec, n: usize, salt: u64) {
    let values: Vec<f64> = match spec.init {
        Init::Zero => vec![0.0; n],
        Init::Iota => (0..n).map(|i| i as f64).collect(),
        Init::Const(v) => vec![v; n],
        Init::Random(seed) => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ (salt << 32));
            match spec.ty {
                Elem::F32 => (0..n).map(|_| rng.random_range(-1.0..1.0)).collect(),
                Elem::I32 => (0..n)
                    .map(|_| f64::from(rng.random_range(-100..100)))
                    .collect(),
            }
        }
        Init::SmallInts(seed) => {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ (salt << 32));
            (0..n).map(|_| f64::from(rng.random_range(0..8))).collect()
        }
    };
    match spec.ty {
        Elem::F32 => b.put_f32(
            &spec.name,
            &values.iter().map(|&v| v as f32).collect::<Vec<_>>(),
        ),
        Elem::I32 => b.put_i32(
            &spec.name,
            &values.iter().map(|&v| v as i32).collect::<Vec<_>>(),
        ),
    }
}

fn values(b: &Buffers, spec: &BufferSpec) -> Vec<f64> {
    match spec.ty {
        Elem::F32 => b
            .f32s(&spec.name)
            .unwrap_or_default()
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::I32 => b
            .i32s(&spec.name)
            .unwrap_or_default()
            .into_iter()
            .map(f64::from)
            .collect(),
    }
}

fn run_error(e: &ExecError, size: &BTreeMap<String, i64>) -> RunError {
    let (kind, line, array) = match e {
        ExecError::OutOfBounds { line, array, .. } => {
            ("out_of_bounds", Some(*line), Some(array.clone()))
        }
        ExecError::DivisionByZero { line, .. } => ("division_by_zero", Some(*line), None),
        ExecError::DivergentBarrier { line, .. } => ("divergent_barrier", Some(*line), None),
        ExecError::TooLong(_) => ("too_long", None, None),
        ExecError::TooMuchMemory { .. } => ("memory", None, None),
        ExecError::Unsupported { line, .. } => ("unsupported", Some(*line), None),
        ExecError::Input(_) => ("input", None, None),
    };
    let detail = matches!(e, ExecError::OutOfBounds { .. }).then(|| Detail::OutOfBounds(e.clone()));
    RunError {
        kind,
        message: e.to_string(),
        line,
        other_line: None,
        array,
        size: size.clone(),
        detail,
    }
}

fn race_error(r: &Race, size: &BTreeMap<String, i64>) -> RunError {
    RunError {
        kind: "race",
        message: r.to_string(),
        line: Some(r.second.line),
        other_line: Some(r.first.line),
        array: Some(r.array.clone()),
        size: size.clone(),
        detail: Some(Detail::Race(r.clone())),
    }
}

/// Parses `source`'s kernel for `size`.
fn parse_for(
    p: &Puzzle,
    source: &str,
    file: &str,
    size: &BTreeMap<String, i64>,
) -> Result<(analyze::ast::Kernel, Launch), CheckError> {
    let launch = launch_for(p, source, size).map_err(|e| CheckError(format!("{file}: {e}")))?;
    let options = Options {
        kernel: Some(p.kernel.clone()),
        launch: Some(launch),
        defines: defines(size),
        full_simulation: false,
        headers: Vec::new(),
        assume: Vec::new(),
    };
    let (kernel, launch) =
        analyze::prepare(source, file, &options).map_err(|e| CheckError(e.to_string()))?;
    Ok((kernel, launch))
}

/// The reference's performance report (what [`check`] grades against), for reuse across checks.
pub fn reference_report(p: &Puzzle) -> Result<Report, CheckError> {
    let file = format!("{}.reference.cu", p.id);
    let (kernel, launch) = parse_for(p, &p.reference, &file, &p.perf)
        .map_err(|e| CheckError(format!("the reference: {e}")))?;
    analyze::report(&kernel, &launch, &file, &Options::default())
        .map_err(|e| CheckError(format!("the reference: {e}")))
}

/// Checks `source` (the learner's file) against `p`; `reference` is the reference's performance
/// report when already known ([`reference_report`]).
pub fn check(p: &Puzzle, source: &str, reference: Option<&Report>) -> Result<Outcome, CheckError> {
    let file = format!("{}.cu", p.id);
    let mut first_wrong = None;
    let mut error = None;
    let mut sizes_run = 0;
    // Parse at the performance size first: a file the analyser cannot read is bad input.
    let (perf_kernel, perf_launch) = parse_for(p, source, &file, &p.perf)?;
    for size in &p.sizes {
        let (kernel, launch) = parse_for(p, source, &file, size)?;
        let ref_file = format!("{}.reference.cu", p.id);
        let (ref_kernel, ref_launch) = parse_for(p, &p.reference, &ref_file, size)
            .map_err(|e| CheckError(format!("the reference: {e}")))?;
        let start = inputs(p, size).map_err(CheckError)?;
        let mut expected = start.clone();
        exec::run(&ref_kernel, &ref_launch, &mut expected, &Limits::default())
            .map_err(|e| CheckError(format!("the reference fails at {size:?}: {e}")))?;
        let mut got = start;
        sizes_run += 1;
        match exec::run(&kernel, &launch, &mut got, &Limits::default()) {
            Err(e) => {
                error = Some(run_error(&e, size));
                break;
            }
            Ok(report) => {
                if let Some(r) = report.races.first() {
                    error = Some(race_error(r, size));
                }
            }
        }
        'outputs: for spec in p.buffers.iter().filter(|b| b.output) {
            let want = values(&expected, spec);
            let have = values(&got, spec);
            for (index, (&e, &g)) in want.iter().zip(&have).enumerate() {
                let ok = match spec.ty {
                    Elem::I32 => e == g,
                    Elem::F32 => (g - e).abs() <= p.tolerance * e.abs().max(1.0),
                };
                if !ok {
                    first_wrong = Some(FirstWrong {
                        array: spec.name.clone(),
                        index,
                        expected: e,
                        got: g,
                        size: size.clone(),
                    });
                    break 'outputs;
                }
            }
        }
        if first_wrong.is_some() || error.is_some() {
            break;
        }
    }
    let correct = first_wrong.is_none() && error.is_none();
    // The performance run: the analyser over the whole launch.
    let report = analyze::report(&perf_kernel, &perf_launch, &file, &Options::default())
        .map_err(|e| CheckError(e.to_string()))?;
    let own_reference;
    let reference = match reference {
        Some(r) => r,
        None => {
            own_reference = reference_report(p)?;
            &own_reference
        }
    };
    let mut targets = Vec::new();
    if p.targets.coalescing {
        let (worst, line, ideal) = worst_global(&report);
        let (ref_worst, _, _) = worst_global(reference);
        let target = ideal * ref_worst.max(1.0);
        // A kernel that touches no global memory has no figure (and cannot have the answer).
        let figure = line.map(|_| worst * ideal);
        targets.push(TargetResult {
            name: "sectors_per_request",
            figure,
            target,
            met: figure.is_some_and(|f| f <= target + 1e-9),
            line,
        });
    }
    if p.targets.bank_conflicts {
        let conflicts =
            |r: &Report| r.totals.shared_load_conflicts + r.totals.shared_store_conflicts;
        let worst_line = report
            .lines
            .iter()
            .filter(|a| a.extra_wavefronts > 0)
            .max_by_key(|a| a.extra_wavefronts)
            .map(|a| a.line);
        let figure = conflicts(&report) as f64;
        let target = conflicts(reference) as f64;
        targets.push(TargetResult {
            name: "bank_conflicts",
            figure: Some(figure),
            target,
            met: figure <= target,
            line: worst_line,
        });
    }
    let predicted_ms = report.time.as_ref().map(|t| t.ms);
    let reference_ms = reference.time.as_ref().map(|t| t.ms);
    if let Some(k) = p.targets.time_factor {
        let target = reference_ms.unwrap_or(0.0) * k;
        targets.push(TargetResult {
            name: "time_ms",
            figure: predicted_ms,
            target,
            met: predicted_ms.is_some_and(|ms| ms <= target * (1.0 + 1e-9)),
            line: None,
        });
    }
    let lines = heat(&report);
    Ok(Outcome {
        puzzle: p.id.clone(),
        correct,
        first_wrong,
        error,
        solved: correct && targets.iter().all(|t| t.met),
        targets,
        predicted_ms,
        reference_ms,
        sizes_run,
        lines,
        report: Some(report),
    })
}

/// The worst global access: its sectors per request in multiples of its ideal, its line, and that
/// ideal (sectors a full warp of its width needs). `(1, None, 1)` without global accesses.
fn worst_global(r: &Report) -> (f64, Option<u32>, f64) {
    let mut worst = (1.0, None, 1.0);
    let mut seen = false;
    for a in r.lines.iter().filter(|a| a.space == "global") {
        let c = &a.counts;
        let requests = c.global_load_requests + c.global_store_requests;
        if requests == 0 {
            continue;
        }
        let per = (c.global_load_sectors + c.global_store_sectors) as f64 / requests as f64;
        let ideal = (f64::from(a.bytes) * 32.0 / 32.0).max(1.0);
        let ratio = per / ideal;
        if !seen || ratio > worst.0 + 1e-12 {
            worst = (ratio, Some(a.line), ideal);
            seen = true;
        }
    }
    worst
}

/// Per-access heat of a report.
pub fn heat(r: &Report) -> Vec<LineHeat> {
    r.lines
        .iter()
        .map(|a| {
            let c = &a.counts;
            let (per, ideal, conflicts) = if a.space == "global" {
                let req = c.global_load_requests + c.global_store_requests;
                let sec = c.global_load_sectors + c.global_store_sectors;
                (
                    if req == 0 {
                        0.0
                    } else {
                        sec as f64 / req as f64
                    },
                    f64::from(a.bytes),
                    0,
                )
            } else {
                let inst = c.shared_load_instructions + c.shared_store_instructions;
                let wf = c.shared_load_wavefronts + c.shared_store_wavefronts;
                (
                    if inst == 0 {
                        0.0
                    } else {
                        wf as f64 / inst as f64
                    },
                    f64::from(a.bytes).div_euclid(4.0).max(1.0),
                    a.extra_wavefronts,
                )
            };
            LineHeat {
                line: a.line,
                text: a.text.clone(),
                space: a.space,
                per_request: per,
                ideal,
                conflicts,
                why: a.why.to_string(),
            }
        })
        .collect()
}

/// A cache key: what is asked, what the puzzle checks (its reference, buffers, sizes, targets —
/// not its words, which differ by language) and a text.
fn cache_key(p: &Puzzle, what: &str, text: &str) -> [u8; 32] {
    let checked = Puzzle {
        title: String::new(),
        statement: String::new(),
        hints: Vec::new(),
        solution: String::new(),
        ..p.clone()
    };
    let mut hasher = blake3::Hasher::new();
    hasher.update(what.as_bytes());
    hasher.update(&[0]);
    hasher.update(ron::to_string(&checked).unwrap_or_default().as_bytes());
    hasher.update(&[0]);
    hasher.update(text.as_bytes());
    *hasher.finalize().as_bytes()
}

/// At most this many entries are kept in each cache (then it starts again).
const KEPT: usize = 256;

type Cache<T> =
    std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<[u8; 32], std::sync::Arc<T>>>>;

/// `key`'s entry of `cache`, else `make`'s, kept.
fn cached<T, E>(
    cache: &'static Cache<T>,
    key: [u8; 32],
    make: impl FnOnce() -> Result<T, E>,
) -> Result<std::sync::Arc<T>, E> {
    let cache = cache.get_or_init(Default::default);
    if let Some(found) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(found);
    }
    let made = std::sync::Arc::new(make()?);
    if let Ok(mut kept) = cache.lock() {
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(key, std::sync::Arc::clone(&made));
    }
    Ok(made)
}

/// [`reference_report`], remembered per puzzle.
pub fn reference_cached(p: &Puzzle) -> Result<std::sync::Arc<Report>, CheckError> {
    static REFERENCES: Cache<Report> = std::sync::OnceLock::new();
    cached(&REFERENCES, cache_key(p, "reference", ""), || {
        reference_report(p)
    })
}

/// [`check`], remembered: the same puzzle and the same source give the outcome found before (a
/// served lab's verdicts, a step shown again and a report's regrade all ask for the same file's
/// outcome, and a check takes seconds).
pub fn check_cached(p: &Puzzle, source: &str) -> Result<std::sync::Arc<Outcome>, CheckError> {
    static CHECKED: Cache<Outcome> = std::sync::OnceLock::new();
    cached(&CHECKED, cache_key(p, "check", source), || {
        let reference = reference_cached(p)?;
        check(p, source, Some(&reference))
    })
}

/// What an outcome comes to, in a word a class's statistics can count: `solved`, `wrong values`,
/// `race`, `out of bounds`, another run error's kind, or the targets missed (`missed
/// sectors_per_request`).
pub fn summary(o: &Outcome) -> String {
    if o.solved {
        return "solved".into();
    }
    if let Some(e) = &o.error {
        return e.kind.replace('_', " ");
    }
    if o.first_wrong.is_some() {
        return "wrong values".into();
    }
    let missed: Vec<&str> = o
        .targets
        .iter()
        .filter(|t| !t.met)
        .map(|t| t.name)
        .collect();
    format!("missed {}", missed.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_scales_with_its_parameter_rounding_up() {
        let p = super::super::find("transpose", crate::i18n::Lang::En).expect("transpose");
        let src = "// launch: --grid 64,64 --block 32,8 -D n=2048\n__global__ void transpose(const float* in, float* out, int n) {}\n";
        let size = BTreeMap::from([("n".to_string(), 33)]);
        let l = launch_for(&p, src, &size).expect("launch");
        assert_eq!(l.grid, [2, 2, 1]);
    }
}
