//! Analysing a CUDA kernel without a GPU: parse a subset of CUDA C with tree-sitter, run every warp of
//! the launch, and count per source line what Nsight Compute's memory counters would show.
//!
//! Each array access in the source is one warp-level memory instruction (a load, a store, or both for
//! `+=`), counted when at least one lane is active, with the single-warp rules of the engine notes:
//! global sectors (§1, §2b) and shared wavefronts (§2, §2b). Values read from memory are unknown: using
//! one in an address or a condition is reported as not supported, never guessed.

pub mod assume;
pub mod ast;
pub mod atomic;
pub mod error;
pub mod examples;
pub mod exec;
pub mod merge;
pub mod parse;
pub mod reuse;
pub mod run;
pub mod timing_text;

pub use error::{AnalyzeError, Result};
pub use run::{ArrayTraffic, Counts, Execution, Launch, Profile, SiteCounts, Trace};

use crate::i18n::Lang;
use crate::t;
use crate::text::{columns, pad};
use ast::Space;
use serde::{Serialize, Serializer};
use std::fmt;

/// What to analyse.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The kernel's name (needed when the file has several).
    pub kernel: Option<String>,
    /// The launch; `None` takes it from a `// launch: --grid … --block …` first line.
    pub launch: Option<Launch>,
    /// `NAME=VALUE` defines, added to the file's `#define`s (and replacing them).
    pub defines: Vec<(String, String)>,
    /// Simulate every block one by one, without counting blocks that behave alike once (slower; the
    /// result is the same, which the tests check).
    pub full_simulation: bool,
    /// Headers the file includes with `#include "…"`: the name as written and the text (see
    /// [`headers_beside`]).
    pub headers: Vec<(String, String)>,
    /// What arrays the kernel reads hold (`--assume`): the figures then depend on these values.
    pub assume: Vec<assume::Assumption>,
}

/// Totals over the launch, named after the Nsight Compute metrics they match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum`
    pub global_load_sectors: u64,
    /// `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum`
    pub global_load_requests: u64,
    /// `l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum`
    pub global_store_sectors: u64,
    /// `l1tex__t_requests_pipe_lsu_mem_global_op_st.sum`
    pub global_store_requests: u64,
    /// `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum`
    pub shared_load_wavefronts: u64,
    /// `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`
    pub shared_load_conflicts: u64,
    /// `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum`
    pub shared_store_wavefronts: u64,
    /// `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum`
    pub shared_store_conflicts: u64,
    /// Warp-level global loads executed with an active lane.
    pub global_load_instructions: u64,
    /// Warp-level global stores executed with an active lane.
    pub global_store_instructions: u64,
    /// Warp-level shared loads executed with an active lane.
    pub shared_load_instructions: u64,
    /// Warp-level shared stores executed with an active lane.
    pub shared_store_instructions: u64,
    /// Bytes the active lanes asked for from global memory (loads and stores).
    pub global_bytes_requested: u64,
}

impl Totals {
    fn add_site(&mut self, space: Space, c: &SiteCounts) {
        match space {
            Space::Global => {
                self.global_load_sectors += c.load.sectors;
                self.global_load_requests += c.load.requests;
                self.global_store_sectors += c.store.sectors;
                self.global_store_requests += c.store.requests;
                self.global_load_instructions += c.load.instructions;
                self.global_store_instructions += c.store.instructions;
                self.global_bytes_requested += c.load.bytes + c.store.bytes;
            }
            Space::Shared => {
                self.shared_load_wavefronts += c.load.wavefronts;
                self.shared_load_conflicts += c.load.wavefronts - c.load.ideal;
                self.shared_store_wavefronts += c.store.wavefronts;
                self.shared_store_conflicts += c.store.wavefronts - c.store.ideal;
                self.shared_load_instructions += c.load.instructions;
                self.shared_store_instructions += c.store.instructions;
            }
        }
    }
}

/// One access in the source and its counts.
#[derive(Debug, Clone, Serialize)]
pub struct AccessReport {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
    /// The access as written.
    pub text: String,
    /// `global` or `shared`.
    pub space: &'static str,
    /// Bytes per lane.
    pub bytes: u32,
    /// Its counts, in the same names as the totals.
    pub counts: Totals,
    /// Sectors fetched beyond the bytes asked for (global): `sectors − ceil(bytes / 32)` per instruction, summed.
    pub wasted_sectors: u64,
    /// Wavefronts beyond one per phase (shared): the bank conflicts.
    pub extra_wavefronts: u64,
    /// Why it costs what it costs, with its figures ([`Why::text`] words it; JSON gets the English).
    #[serde(serialize_with = "english")]
    pub why: Why,
    /// The counts if the compiler merges this access with its neighbours into one wider access
    /// (present only where that changes them; the merged access is counted on its first member).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<Totals>,
    /// The counts of the access as written, where the compiler's merge is in `counts` (a
    /// `__shared__` access merged with its neighbours, as nvcc does with known alignment: one
    /// statement's neighbours, or the turns of a loop it unrolls); `merge_note` names the merge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_written: Option<Totals>,
    /// Which merge `merged` assumes ([`MergeNote::text`] words it; JSON gets the English).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "english_option"
    )]
    pub merge_note: Option<MergeNote>,
}

/// The analysis of one kernel over one launch.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The kernel's name.
    pub kernel: String,
    /// Blocks per grid, x y z.
    pub grid: [u32; 3],
    /// Threads per block, x y z.
    pub block: [u32; 3],
    /// Totals over the launch.
    pub totals: Totals,
    /// Every access, in source order.
    pub lines: Vec<AccessReport>,
    /// The totals if the compiler merges neighbouring accesses of one thread into wider ones
    /// (`LDS.64`, `LDS.128`, …); present only where some merge changes the counts. `totals` counts
    /// the accesses as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_totals: Option<Totals>,
    /// The totals of the accesses as written, where `totals` has merges the compiler makes (see
    /// [`AccessReport::as_written`]); absent when they are the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub written_totals: Option<Totals>,
    /// The first and last line of the kernel's definition (the text report shows these, and any
    /// other line with an access, such as a `__device__` function's).
    #[serde(skip)]
    pub kernel_lines: (u32, u32),
    /// What the timing model reads beyond the counts: round trips, barriers, lines, the sectors
    /// that reach L2 and the DRAM traffic of each array.
    pub profile: Profile,
    /// Shared memory the kernel declares, bytes.
    #[serde(skip)]
    pub shared_bytes: i64,
    /// The predicted time on the H200 ([`crate::engine::timing`]); `None` when the block cannot run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<crate::engine::timing::Prediction>,
    /// The atomics the kernel calls, `line:column text`: not in the counts, which Nsight Compute
    /// keeps apart (`…_op_atom`, `…_op_red`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub atomics: Vec<String>,
    /// What each atomic costs, as Nsight Compute counts atomics (see [`atomic`]), in source order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub atomic_lines: Vec<AtomicReport>,
    /// Their totals; absent when the kernel calls no atomic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub atomic_totals: Option<AtomicTotals>,
    /// The loads nvcc does not make: each reuses a value already in a register (see
    /// [`reuse`]); they count nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reused: Vec<ReusedLoad>,
    /// What the figures assume the kernel's arrays hold (`--assume`); empty when they depend on
    /// no data.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<assume::Assumed>,
    /// What divergence costs: the warp instructions issued with some of a warp's threads idle.
    pub divergence: Divergence,
}

/// What divergence costs (from [`Profile`]): warp instructions — memory accesses, arithmetic on
/// values, loop tests, barriers, as the timing model counts them — issued while some threads of
/// the warp sat idle, because a branch was taken by only some, a loop had lost some, or some had
/// returned.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Divergence {
    /// Warp instructions issued.
    pub warp_instructions: u64,
    /// Of them, issued with some of the warp's threads idle.
    pub partial_instructions: u64,
    /// Threads active per warp instruction, on average (32 for full warps that never diverge).
    pub active_threads: f64,
    /// The lines issuing the most instructions with threads idle, most first (at most five).
    pub lines: Vec<DivergentLine>,
}

/// One line's share of divergence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DivergentLine {
    /// The line, from 1.
    pub line: u32,
    /// Warp instructions the line issues.
    pub instructions: u64,
    /// Of them, with threads idle.
    pub partial: u64,
}

impl Divergence {
    fn of(p: &Profile) -> Divergence {
        let mut lines: Vec<DivergentLine> = p
            .line_instructions
            .iter()
            .enumerate()
            .filter(|(_, [_, partial])| *partial > 0)
            .map(|(line, [all, partial])| DivergentLine {
                line: u32::try_from(line).unwrap_or(u32::MAX),
                instructions: *all,
                partial: *partial,
            })
            .collect();
        lines.sort_by_key(|l| (std::cmp::Reverse(l.partial), l.line));
        lines.truncate(5);
        Divergence {
            warp_instructions: p.warp_instructions,
            partial_instructions: p.partial_instructions,
            active_threads: if p.warp_instructions == 0 {
                0.0
            } else {
                p.thread_instructions as f64 / p.warp_instructions as f64
            },
            lines,
        }
    }
}

/// One atomic of the source and what the hardware counts for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AtomicReport {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1.
    pub column: u32,
    /// The call as written.
    pub text: String,
    /// `global` or `shared`.
    pub space: &'static str,
    /// The instruction nvcc makes: `ATOMG` (the old value is used), `REDG`, or `ATOMS`.
    pub instruction: &'static str,
    /// How the lanes are served: `combined` (one lane for the warp), `increment` (lanes on one
    /// address count once), `swap-loop` (a load and a compare-and-swap loop), `rounds` (lanes on
    /// one address one after another).
    pub form: &'static str,
    /// Warp-level executions with an active lane (the requests, for global memory).
    pub instructions: u64,
    /// Sectors (global).
    pub sectors: u64,
    /// Wavefronts (shared).
    pub wavefronts: u64,
    /// Shared-load wavefronts of a compare-and-swap loop's first load (in the totals' shared loads).
    pub loads: u64,
    /// Executions not counted as the address depends on data (give `--assume`).
    pub uncounted: u64,
    /// Executions not counted as lanes on one address retry a compare-and-swap loop as often as
    /// timing makes them.
    pub retried: u64,
}

/// The atomics' totals, named after the Nsight Compute metrics they match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct AtomicTotals {
    /// `l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum`
    pub global_atom_requests: u64,
    /// `l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum`
    pub global_atom_sectors: u64,
    /// `l1tex__t_requests_pipe_lsu_mem_global_op_red.sum`
    pub global_red_requests: u64,
    /// `l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum`
    pub global_red_sectors: u64,
    /// `smsp__inst_executed_op_shared_atom.sum`
    pub shared_atom_instructions: u64,
    /// `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum`
    pub shared_atom_wavefronts: u64,
    /// Executions left out of these (see [`AtomicReport::uncounted`], [`AtomicReport::retried`]).
    pub uncounted: u64,
}

/// A load the compiler leaves out, as the value is already in a register.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReusedLoad {
    /// Line of the load, from 1.
    pub line: u32,
    /// Its column.
    pub column: u32,
    /// The load as written.
    pub text: String,
    /// Line of the access whose value it uses.
    pub from_line: u32,
    /// Whether that access is a store, whose value is forwarded.
    pub stored: bool,
}

impl Report {
    /// What the timing model needs, from the counts and the profile. The shared wavefronts are
    /// those with the compiler's merges (what `nvcc -O3` runs).
    pub fn work(&self) -> crate::engine::timing::Work {
        use crate::engine::timing::{Traffic, Work};
        let p = &self.profile;
        let t = &self.totals;
        let merged = self.merged_totals.as_ref().unwrap_or(t);
        let blocks = p.blocks.max(1) as f64;
        let traffic = |list: &[(String, ArrayTraffic)]| Traffic {
            touched_bytes: list.iter().map(|(_, a)| a.touched_bytes as f64).sum(),
            footprint_bytes: list.iter().map(|(_, a)| a.footprint_bytes as f64).sum(),
        };
        let [x, y, z] = self.block;
        Work {
            blocks: p.blocks,
            threads_per_block: x.saturating_mul(y).saturating_mul(z),
            shared_bytes: u32::try_from(self.shared_bytes.max(0)).unwrap_or(u32::MAX),
            regs_per_thread: 0,
            rounds_per_block: p.block_rounds as f64 / blocks,
            barriers_per_block: p.block_barriers as f64 / blocks,
            conflicts_per_block: p.block_conflict_wavefronts as f64 / blocks,
            global_loads: p.global_loads as f64,
            global_lines: p.global_lines as f64,
            shared_wavefronts: (merged.shared_load_wavefronts + merged.shared_store_wavefronts)
                as f64,
            load_sectors: t.global_load_sectors as f64,
            l2_load_sectors: p.l2_load_sectors as f64,
            store_sectors: t.global_store_sectors as f64,
            partial_store_sectors: p.partial_store_sectors as f64,
            warp_instructions: p.warp_instructions as f64,
            warp_divisions: p.warp_divisions as f64,
            requested_bytes: t.global_bytes_requested as f64,
            read: traffic(&p.loads),
            write: traffic(&p.stores),
        }
    }

    /// The predicted time on `gpu`; `None` when the block cannot run there.
    pub fn predict(
        &self,
        gpu: &crate::engine::timing::Gpu,
    ) -> Option<crate::engine::timing::Prediction> {
        crate::engine::timing::predict(gpu, &self.work()).ok()
    }
}

/// Reads `--grid X[,Y[,Z]]`-style dimensions.
pub fn parse_dims(text: &str) -> Result<[u32; 3]> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(AnalyzeError::Input(format!(
            "`{text}`: give one to three sizes, X[,Y[,Z]]"
        )));
    }
    let mut dims = [1u32; 3];
    for (k, p) in parts.iter().enumerate() {
        dims[k] = p
            .parse::<u32>()
            .ok()
            .filter(|v| *v >= 1 && *v <= i32::MAX as u32)
            .ok_or_else(|| {
                AnalyzeError::Input(format!("`{p}` in `{text}` is not a size from 1 up"))
            })?;
    }
    Ok(dims)
}

/// The launch in a `// launch: --grid … --block …` first line, if there is one.
pub fn launch_line(source: &str) -> Result<Option<Launch>> {
    let Some(first) = source.lines().next() else {
        return Ok(None);
    };
    let Some(rest) = first.trim().strip_prefix("//") else {
        return Ok(None);
    };
    let Some(rest) = rest.trim().strip_prefix("launch:") else {
        return Ok(None);
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut grid = None;
    let mut block = None;
    let mut k = 0;
    while k < words.len() {
        let (flag, value) = match words[k].split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (words[k], None),
        };
        let value = match value {
            Some(v) => v,
            None => {
                k += 1;
                words.get(k).copied().unwrap_or("")
            }
        };
        match flag {
            "--grid" => grid = Some(parse_dims(value)?),
            "--block" => block = Some(parse_dims(value)?),
            _ => {}
        }
        k += 1;
    }
    match (grid, block) {
        (Some(grid), Some(block)) => Ok(Some(Launch { grid, block })),
        _ => Err(AnalyzeError::Input(
            "the `// launch:` line needs both --grid and --block, as in `// launch: --grid 64,64 --block 32,8 -D n=2048`".into(),
        )),
    }
}

/// The `-D NAME=VALUE` defines of a `// launch:` first line (`-DNAME=VALUE` too), in order; none
/// when there is no such line. A malformed define is an error naming it.
pub fn launch_defines(source: &str) -> Result<Vec<(String, String)>> {
    let Some(rest) = source
        .lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("//"))
        .and_then(|l| l.trim().strip_prefix("launch:"))
    else {
        return Ok(Vec::new());
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut defines = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let define = if words[k] == "-D" || words[k] == "--define" {
            k += 1;
            words.get(k).copied()
        } else {
            words[k].strip_prefix("-D").filter(|d| !d.is_empty())
        };
        if let Some(d) = define {
            defines.push(parse_define(d)?);
        }
        k += 1;
    }
    Ok(defines)
}

/// The most headers [`headers_beside`] reads, and the most bytes of each.
const MAX_HEADERS: usize = 32;
const MAX_HEADER_BYTES: u64 = 1 << 20;

/// The headers `source` (the file at `path`) includes with `#include "name"`, read from beside it
/// (and theirs, from beside them): each name as written, with its text. A header that is missing,
/// not a regular file, larger than 1 MiB or not UTF-8 is left out (the kernel then meets what it
/// lacks by name); at most 32 are read.
pub fn headers_beside(path: &std::path::Path, source: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let dir = path
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let mut queue: Vec<(std::path::PathBuf, String)> = vec![(dir, source.to_string())];
    while let Some((dir, text)) = queue.pop() {
        for line in text.lines() {
            let line = line.trim_start();
            let Some(rest) = line.strip_prefix('#') else {
                continue;
            };
            let Some(rest) = rest.trim_start().strip_prefix("include") else {
                continue;
            };
            let rest = rest.trim();
            let Some(name) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) else {
                continue;
            };
            if out.len() >= MAX_HEADERS {
                return out;
            }
            let file = dir.join(name);
            let key = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
            if !seen.insert(key) {
                continue;
            }
            let Ok(meta) = std::fs::metadata(&file) else {
                continue;
            };
            if !meta.is_file() || meta.len() > MAX_HEADER_BYTES {
                continue;
            }
            let Ok(header) = std::fs::read_to_string(&file) else {
                continue;
            };
            let inner = file
                .parent()
                .map(std::path::Path::to_path_buf)
                .unwrap_or_default();
            queue.push((inner, header.clone()));
            out.push((name.to_string(), header));
        }
    }
    out
}

/// Reads a `NAME=VALUE` define.
pub fn parse_define(text: &str) -> Result<(String, String)> {
    match text.split_once('=') {
        Some((n, v))
            if !n.trim().is_empty()
                && n.trim()
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !v.trim().is_empty() =>
        {
            Ok((n.trim().to_string(), v.trim().to_string()))
        }
        _ => Err(AnalyzeError::Input(format!(
            "`{text}`: a define is NAME=VALUE, such as N=1024"
        ))),
    }
}

/// Analyses the kernel in `source` (`file` names it in messages).
pub fn analyze(source: &str, file: &str, options: &Options) -> Result<Report> {
    let (kernel, launch) = prepare(source, file, options)?;
    report(&kernel, &launch, file, options)
}

/// The kernel parsed, with the launch it runs under (from the options or the `// launch:` line).
pub fn prepare(source: &str, file: &str, options: &Options) -> Result<(ast::Kernel, Launch)> {
    let launch = match options.launch {
        Some(l) => l,
        None => launch_line(source)?.ok_or_else(|| {
            AnalyzeError::Input(
                "no launch: give --grid and --block, or a first line `// launch: --grid … --block …`"
                    .into(),
            )
        })?,
    };
    // The launch line's defines come first, so that the options' (the command line's) replace them.
    let mut defines = launch_defines(source)?;
    defines.extend(options.defines.iter().cloned());
    let mut kernel = parse::parse_kernel(
        source,
        file,
        options.kernel.as_deref(),
        &defines,
        &options.headers,
    )?;
    for a in &options.assume {
        if !kernel.sites.iter().any(|s| s.array == a.array) {
            let mut read: Vec<&str> = Vec::new();
            for s in &kernel.sites {
                if !read.contains(&s.array.as_str()) {
                    read.push(&s.array);
                }
            }
            return Err(AnalyzeError::Input(format!(
                "--assume names `{}`, which `{}` does not access (it accesses: {})",
                a.array,
                kernel.name,
                read.join(", ")
            )));
        }
    }
    kernel.assume = options.assume.clone();
    Ok((kernel, launch))
}

/// Runs a parsed kernel over its launch and reports every access.
pub fn report(
    kernel: &ast::Kernel,
    launch: &Launch,
    file: &str,
    options: &Options,
) -> Result<Report> {
    let kernel = kernel.clone();
    let launch = *launch;
    let ran = if options.full_simulation {
        run::run_full(&kernel, &launch, file)?
    } else {
        run::run(&kernel, &launch, file)?
    };
    let roles = merge::roles(&kernel);
    let loops = innermost_loops(&kernel);
    let instructions = |c: &run::SiteCounts| c.load.instructions + c.store.instructions;
    // Whether every execution of a site was merged: nvcc merges in the code, once for all
    // executions, only where it can prove the alignment; an access aligned on some executions
    // and not on others (a row stride of 133 floats) is not merged at all.
    let whole = |k: usize| {
        let (w, m) = (instructions(&ran.counts[k]), instructions(&ran.merged[k]));
        match roles.get(k).copied().flatten() {
            Some(merge::Role::Run) => m > 0 && (w == 2 * m || w == 4 * m),
            Some(merge::Role::Group { pos: 0, .. }) => m == w,
            Some(merge::Role::Group { .. }) => m == 0,
            None => false,
        }
    };
    let mut group_whole: std::collections::HashMap<usize, bool> = std::collections::HashMap::new();
    for k in 0..kernel.sites.len() {
        if let Some(merge::Role::Group { group, .. }) = roles.get(k).copied().flatten() {
            let w = whole(k);
            group_whole
                .entry(group)
                .and_modify(|g| *g &= w)
                .or_insert(w);
        }
    }
    // The merges nvcc makes: shared memory (whose alignment it knows), neighbours of one
    // statement, or an index stepping through the turns of a loop it unrolls — each merged on
    // every execution.
    let compiled = |k: usize| {
        kernel.sites[k].space == Space::Shared
            && match roles.get(k).copied().flatten() {
                Some(merge::Role::Group { group, .. }) => group_whole[&group],
                Some(merge::Role::Run) => {
                    whole(k) && loops[k].is_some_and(|p| kernel.unrolled.contains(&p))
                }
                None => false,
            }
    };
    let mut totals = Totals::default();
    let mut merged_totals = Totals::default();
    let mut written_totals = Totals::default();
    let mut lines = Vec::new();
    for (k, (site, written)) in kernel.sites.iter().zip(&ran.counts).enumerate() {
        if site.merged_into.is_some() {
            // Read with another site as one access, counted there.
            continue;
        }
        let m = &ran.merged[k];
        merged_totals.add_site(site.space, m);
        written_totals.add_site(site.space, written);
        let merges = m != written;
        let (c, as_written) = if merges && compiled(k) {
            let mut t = Totals::default();
            t.add_site(site.space, written);
            (m, Some(t))
        } else {
            (written, None)
        };
        let (merged, merge_note) = if merges {
            let mut t = Totals::default();
            t.add_site(site.space, m);
            (
                as_written.is_none().then_some(t),
                Some(merge_note(&kernel, &roles, k)),
            )
        } else {
            (None, None)
        };
        let mut t = Totals::default();
        t.add_site(site.space, c);
        totals.add_site(site.space, c);
        let per_instr = u64::from(site.access_bytes) * 32;
        let (wasted, extra, why) = match site.space {
            Space::Global => {
                let mut wasted = 0;
                for k in [&c.load, &c.store] {
                    // Against the fewest sectors each execution's bytes could take: a lane alone
                    // on its sector wastes nothing it could have saved.
                    wasted += k.sectors.saturating_sub(k.least_sectors);
                }
                let instrs = c.load.instructions + c.store.instructions;
                let sectors = c.load.sectors + c.store.sectors;
                let why = if instrs == 0 {
                    Why::NeverRuns
                } else {
                    let sectors_per_request = sectors as f64 / instrs as f64;
                    let eff = if sectors == 0 {
                        1.0
                    } else {
                        ((c.load.bytes + c.store.bytes) as f64 / (sectors as f64 * 32.0)).min(1.0)
                    };
                    let ideal = per_instr.div_ceil(32);
                    if sectors_per_request <= ideal as f64 + 1e-9 {
                        Why::Coalesced {
                            sectors_per_request,
                            used_percent: eff * 100.0,
                        }
                    } else {
                        let op = match (c.load.instructions > 0, c.store.instructions > 0) {
                            (true, false) => Some(crate::engine::Op::Load),
                            (false, true) => Some(crate::engine::Op::Store),
                            _ => None,
                        };
                        Why::Scattered {
                            sectors_per_request,
                            ideal,
                            used_percent: eff * 100.0,
                            op,
                        }
                    }
                };
                (wasted, 0, why)
            }
            Space::Shared => {
                let extra =
                    (c.load.wavefronts - c.load.ideal) + (c.store.wavefronts - c.store.ideal);
                let waves = c.load.wavefronts + c.store.wavefronts;
                let ideal = c.load.ideal + c.store.ideal;
                let why = if ideal == 0 {
                    Why::NeverRuns
                } else if extra == 0 {
                    Why::NoConflicts
                } else {
                    Why::BankConflicts {
                        ways: waves as f64 / ideal as f64,
                    }
                };
                (0, extra, why)
            }
        };
        lines.push(AccessReport {
            line: site.pos.line,
            column: site.pos.column,
            text: site.text.clone(),
            space: match site.space {
                Space::Global => "global",
                Space::Shared => "shared",
            },
            bytes: site.access_bytes,
            counts: t,
            wasted_sectors: wasted,
            extra_wavefronts: extra,
            why,
            merged,
            merge_note,
            as_written,
        });
    }
    let shapes = atomic::shapes(&kernel);
    let mut atomic_lines = Vec::new();
    let mut atomic_totals = AtomicTotals::default();
    for (n, (target, c)) in kernel.atomic_targets.iter().zip(&ran.atomics).enumerate() {
        let (Some(t), Some((pos, text)), Some(shape)) =
            (target, kernel.atomics.get(n), shapes.get(n))
        else {
            continue;
        };
        let global = t.site.space == Space::Global;
        let atom = shape.is_atom(t.kind);
        let form = shape.form(t);
        let counted = c.instructions - (c.uncounted + c.retried).min(c.instructions);
        match (global, atom) {
            (true, true) => {
                atomic_totals.global_atom_requests += c.instructions;
                atomic_totals.global_atom_sectors += c.sectors;
            }
            (true, false) => {
                atomic_totals.global_red_requests += c.instructions;
                atomic_totals.global_red_sectors += c.sectors;
            }
            (false, _) => {
                atomic_totals.shared_atom_instructions += c.instructions;
                atomic_totals.shared_atom_wavefronts += c.wavefronts;
            }
        }
        atomic_totals.uncounted += c.uncounted + c.retried;
        if c.loads > 0 {
            for t in [&mut totals, &mut merged_totals, &mut written_totals] {
                t.shared_load_wavefronts += c.loads;
                t.shared_load_instructions += counted;
            }
        }
        atomic_lines.push(AtomicReport {
            line: pos.line,
            column: pos.column,
            text: text.clone(),
            space: if global { "global" } else { "shared" },
            instruction: match (global, atom) {
                (false, _) => "ATOMS",
                (true, true) => "ATOMG",
                (true, false) => "REDG",
            },
            form: match form {
                atomic::Form::Combined => "combined",
                atomic::Form::Increment => "increment",
                atomic::Form::SwapLoop => "swap-loop",
                atomic::Form::Rounds => "rounds",
            },
            instructions: c.instructions,
            sectors: c.sectors,
            wavefronts: c.wavefronts,
            loads: c.loads,
            uncounted: c.uncounted,
            retried: c.retried,
        });
    }
    atomic_lines.sort_by_key(|a| (a.line, a.column));
    let mut report = Report {
        kernel: kernel.name,
        grid: launch.grid,
        block: launch.block,
        totals,
        lines,
        merged_totals: (merged_totals != totals).then_some(merged_totals),
        written_totals: (written_totals != totals).then_some(written_totals),
        kernel_lines: kernel.lines,
        divergence: Divergence::of(&ran.profile),
        profile: ran.profile,
        shared_bytes: kernel.shared_bytes,
        time: None,
        atomics: kernel
            .atomics
            .iter()
            .map(|(p, text)| format!("{}:{} {text}", p.line, p.column))
            .collect(),
        atomic_lines,
        atomic_totals: (!kernel.atomics.is_empty()).then_some(atomic_totals),
        reused: kernel
            .reused
            .iter()
            .map(|r| {
                let (s, f) = (&kernel.sites[r.site], &kernel.sites[r.from]);
                ReusedLoad {
                    line: s.pos.line,
                    column: s.pos.column,
                    text: s.text.clone(),
                    from_line: f.pos.line,
                    stored: r.stored,
                }
            })
            .collect(),
        assumed: kernel
            .assume
            .iter()
            .map(assume::Assumption::shown)
            .collect(),
    };
    report.time = report.predict(&crate::engine::timing::H200);
    Ok(report)
}

/// Divergence's line under the totals, and the lines that cost most of it.
fn divergence_text(out: &mut String, d: &Divergence, lang: Lang) {
    use std::fmt::Write as _;
    if d.warp_instructions == 0 {
        return;
    }
    let _ = writeln!(
        out,
        "  {:<14} {}",
        t!(lang, "analyze-text-divergence"),
        t!(
            lang,
            "analyze-text-divergence-figures",
            partial = d.partial_instructions,
            all = d.warp_instructions,
            percent = format!(
                "{:.1}",
                100.0 * d.partial_instructions as f64 / d.warp_instructions as f64
            ),
            threads = format!("{:.1}", d.active_threads)
        )
    );
    for l in d.lines.iter().take(3) {
        let _ = writeln!(
            out,
            "    {}",
            t!(
                lang,
                "analyze-text-divergent-line",
                line = l.line,
                partial = l.partial,
                all = l.instructions
            )
        );
    }
}

/// The atomics of a text report: each with what the hardware counts for it, then their totals.
fn atomics_text(out: &mut String, report: &Report, lang: Lang) {
    use std::fmt::Write as _;
    if report.atomics.is_empty() {
        return;
    }
    let _ = writeln!(out, "  {}", t!(lang, "analyze-text-atomics"));
    for a in &report.atomics {
        let _ = writeln!(out, "    {a}");
        let at = a.split_once(' ').map_or(a.as_str(), |(p, _)| p);
        let line = report
            .atomic_lines
            .iter()
            .find(|l| format!("{}:{}", l.line, l.column) == at);
        let Some(l) = line else {
            let _ = writeln!(out, "      {}", t!(lang, "analyze-text-atomic-unfollowed"));
            continue;
        };
        let form = match l.form {
            "combined" => t!(lang, "analyze-atomic-form-combined"),
            "increment" => t!(lang, "analyze-atomic-form-increment"),
            "swap-loop" => t!(lang, "analyze-atomic-form-swap-loop"),
            _ => t!(lang, "analyze-atomic-form-rounds"),
        };
        let per = |x: u64| {
            let done = l.instructions.saturating_sub(l.uncounted + l.retried);
            if done == 0 {
                "—".to_string()
            } else {
                format!("{:.1}", x as f64 / done as f64)
            }
        };
        let figures = if l.space == "global" {
            t!(
                lang,
                "analyze-text-atomic-global",
                instruction = l.instruction,
                requests = l.instructions,
                sectors = l.sectors,
                per = per(l.sectors),
                form = form
            )
        } else {
            t!(
                lang,
                "analyze-text-atomic-shared",
                instructions = l.instructions,
                wavefronts = l.wavefronts,
                per = per(l.wavefronts),
                form = form
            )
        };
        let _ = writeln!(out, "      {figures}");
        if l.uncounted > 0 {
            let _ = writeln!(
                out,
                "      {}",
                t!(lang, "analyze-text-atomic-uncounted", n = l.uncounted)
            );
        }
        if l.retried > 0 {
            let _ = writeln!(
                out,
                "      {}",
                t!(lang, "analyze-text-atomic-retried", n = l.retried)
            );
        }
    }
    if let Some(t) = &report.atomic_totals {
        let _ = writeln!(
            out,
            "  {}",
            t!(
                lang,
                "analyze-text-atomic-totals",
                atom_requests = t.global_atom_requests,
                atom_sectors = t.global_atom_sectors,
                red_requests = t.global_red_requests,
                red_sectors = t.global_red_sectors,
                shared_instructions = t.shared_atom_instructions,
                shared_wavefronts = t.shared_atom_wavefronts
            )
        );
    }
}

/// Per site, the innermost loop it is in (where the loop starts).
fn innermost_loops(kernel: &ast::Kernel) -> Vec<Option<ast::Pos>> {
    fn expr(e: &ast::Expr, at: Option<ast::Pos>, out: &mut [Option<ast::Pos>]) {
        let mut loads = Vec::new();
        merge::loads_in_expr(e, &mut loads);
        for s in loads {
            if let Some(slot) = out.get_mut(s) {
                *slot = at;
            }
        }
    }
    fn walk(stmts: &[ast::Stmt], at: Option<ast::Pos>, out: &mut [Option<ast::Pos>]) {
        for s in stmts {
            match s {
                ast::Stmt::SetLocal { value, .. } | ast::Stmt::Eval(value, _) => {
                    expr(value, at, out)
                }
                ast::Stmt::Store { site, value, .. } => {
                    expr(value, at, out);
                    if let Some(slot) = out.get_mut(*site) {
                        *slot = at;
                    }
                }
                ast::Stmt::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => {
                    expr(cond, at, out);
                    walk(then, at, out);
                    walk(otherwise, at, out);
                }
                ast::Stmt::Loop {
                    cond,
                    body,
                    step,
                    pos,
                } => {
                    if let Some(c) = cond {
                        expr(c, Some(*pos), out);
                    }
                    walk(body, Some(*pos), out);
                    walk(step, Some(*pos), out);
                }
                ast::Stmt::Return | ast::Stmt::Barrier(_) => {}
            }
        }
    }
    let mut out = vec![None; kernel.sites.len()];
    walk(&kernel.body, None, &mut out);
    out
}

/// Which merge a site's merged counts assume.
fn merge_note(kernel: &ast::Kernel, roles: &[Option<merge::Role>], site: usize) -> MergeNote {
    let s = &kernel.sites[site];
    match roles.get(site).copied().flatten() {
        Some(merge::Role::Group { group, size, .. }) => MergeNote {
            members: kernel
                .sites
                .iter()
                .zip(roles)
                .filter(
                    |(_, r)| matches!(r, Some(merge::Role::Group { group: g, .. }) if *g == group),
                )
                .map(|(site, _)| site.text.clone())
                .collect(),
            bytes: s.access_bytes * size as u32,
            space: s.space,
            unrolled: false,
        },
        _ => MergeNote {
            members: vec![s.text.clone()],
            bytes: 16 / s.access_bytes.max(1) * s.access_bytes,
            space: s.space,
            unrolled: true,
        },
    }
}

/// Why an access costs what it costs, with the figures that show it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Why {
    /// No warp runs it with an active lane.
    NeverRuns,
    /// Global: no more sectors per request than a full warp of these bytes needs.
    Coalesced {
        /// Sectors per request (instruction), on average.
        sectors_per_request: f64,
        /// Of the bytes fetched, the share asked for, in percent.
        used_percent: f64,
    },
    /// Global: more sectors per request than a full warp needs.
    Scattered {
        /// Sectors per request (instruction), on average.
        sectors_per_request: f64,
        /// The sectors a full warp of these bytes needs.
        ideal: u64,
        /// Of the bytes fetched, the share asked for, in percent.
        used_percent: f64,
        /// What the lanes do there: load, store, or both (`None`, as in `a[i] += 1`).
        op: Option<crate::engine::Op>,
    },
    /// Shared: one wavefront per phase.
    NoConflicts,
    /// Shared: more wavefronts than phases.
    BankConflicts {
        /// Wavefronts per phase, on average.
        ways: f64,
    },
}

impl Why {
    /// The explanation in `lang`, one line.
    pub fn text(&self, lang: Lang) -> String {
        match *self {
            Why::NeverRuns => t!(lang, "analyze-never-runs"),
            Why::Coalesced {
                sectors_per_request,
                used_percent,
            } => t!(
                lang,
                "analyze-why-coalesced",
                sectors = format!("{sectors_per_request:.1}"),
                used = format!("{used_percent:.0}")
            ),
            Why::Scattered {
                sectors_per_request,
                ideal,
                used_percent,
                op,
            } => t!(
                lang,
                "analyze-why-scattered",
                sectors = format!("{sectors_per_request:.1}"),
                ideal = ideal,
                used = format!("{used_percent:.0}"),
                op = op.map_or("both", |op| op.key())
            ),
            Why::NoConflicts => t!(lang, "analyze-why-no-conflicts"),
            Why::BankConflicts { ways } => {
                t!(lang, "analyze-why-conflicts", ways = format!("{ways:.1}"))
            }
        }
    }
}

/// The English text, as `--json` gives it.
impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

/// The merge that an access's merged counts assume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeNote {
    /// The accesses merged, as written (one, for an unrolled loop's neighbouring iterations).
    pub members: Vec<String>,
    /// Bytes per thread of the merged access.
    pub bytes: u32,
    /// Global or shared memory.
    pub space: Space,
    /// Whether the merge needs the loop unrolled (one access of neighbouring iterations).
    pub unrolled: bool,
}

impl MergeNote {
    /// The SASS instruction the merge makes: `LDG/STG.64`, `LDS/STS.128`, …
    pub fn op(&self) -> String {
        let kind = match self.space {
            Space::Global => "LDG/STG",
            Space::Shared => "LDS/STS",
        };
        format!("{kind}.{}", self.bytes * 8)
    }

    /// The note in `lang`, one line.
    pub fn text(&self, lang: Lang) -> String {
        if self.unrolled {
            t!(
                lang,
                "analyze-merge-unrolled",
                access = format!("`{}`", self.members.first().map_or("", String::as_str)),
                bytes = self.bytes,
                op = self.op()
            )
        } else {
            let members: Vec<String> = self.members.iter().map(|m| format!("`{m}`")).collect();
            let (last, rest) = members.split_last().map_or(("", &[][..]), |(l, r)| (l, r));
            let members = if rest.is_empty() {
                last.to_string()
            } else {
                t!(
                    lang,
                    "analyze-merge-and",
                    first = rest.join(&t!(lang, "analyze-merge-list-separator")),
                    last = last
                )
            };
            t!(
                lang,
                "analyze-merge-group",
                members = members,
                bytes = self.bytes,
                op = self.op()
            )
        }
    }
}

/// The English text, as `--json` gives it.
impl fmt::Display for MergeNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

fn english<S: Serializer>(
    value: &impl fmt::Display,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

fn english_option<S: Serializer>(
    value: &Option<MergeNote>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    match value {
        Some(note) => serializer.collect_str(note),
        None => serializer.serialize_none(),
    }
}

/// The report as text: the source with each line's figures, the totals and the costliest lines.
pub fn render_text(source: &str, report: &Report) -> String {
    render_text_in(source, report, Lang::En)
}

/// [`render_text`] in `lang`: the words translated, the figures and the layout the same.
pub fn render_text_in(source: &str, report: &Report, lang: Lang) -> String {
    render_text_with(source, report, lang, Shown::Kernel)
}

/// Which lines of the file the text report prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The kernel's own lines, up to [`CONTEXT`] lines before it that introduce it (its comment,
    /// its defines, its `template` line) and every other line with an access; the rest of the file (host code, other kernels) is cut, a
    /// gap shown as `…`.
    Kernel,
    /// Every line of the file.
    Whole,
}

/// The most lines printed before the kernel's first line.
pub const CONTEXT: u32 = 3;

/// A line that introduces the code after it: blank, a comment, a preprocessor line, a `template`.
fn introduces(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty()
        || ["//", "/*", "*", "#", "template"]
            .iter()
            .any(|p| t.starts_with(p))
}

/// [`render_text_in`] with the lines of the file it shows chosen.
pub fn render_text_with(source: &str, report: &Report, lang: Lang, lines: Shown) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "analyze-text-head",
            kernel = report.kernel.as_str(),
            grid = dims(report.grid),
            block = dims(report.block)
        )
    );
    let line_head = t!(lang, "analyze-text-line");
    let _ = writeln!(
        out,
        "{}{line_head}  {} | {}",
        " ".repeat(5usize.saturating_sub(columns(&line_head))),
        pad(&t!(lang, "analyze-text-figures"), 52),
        t!(lang, "analyze-text-source")
    );
    // The kernel's own lines and every line with an access; host code and other kernels around it
    // are left out, a gap shown as `…`.
    let (first, last) = report.kernel_lines;
    // The accesses of each line, found once (a scan per line was quadratic in a long kernel).
    let mut by_line: std::collections::HashMap<u32, Vec<&AccessReport>> =
        std::collections::HashMap::new();
    for a in &report.lines {
        by_line.entry(a.line).or_default().push(a);
    }
    let all: Vec<&str> = source.lines().collect();
    let mut from = first;
    while from > 1
        && first - from < CONTEXT
        && all.get(from as usize - 2).is_some_and(|l| introduces(l))
    {
        from -= 1;
    }
    let shown = |line: u32| {
        lines == Shown::Whole || (from..=last).contains(&line) || by_line.contains_key(&line)
    };
    let mut skipped = false;
    for (k, text) in source.lines().enumerate() {
        let line = k as u32 + 1;
        if first > 0 && !shown(line) {
            skipped = true;
            continue;
        }
        if std::mem::take(&mut skipped) {
            let _ = writeln!(out, "{:>5}  {:<52} |", "…", "");
        }
        let mut figures: Vec<String> = Vec::new();
        for r in report.reused.iter().filter(|r| r.line == line) {
            figures.push(if r.stored {
                t!(lang, "analyze-text-forwarded", from = r.from_line)
            } else {
                t!(lang, "analyze-text-reused", from = r.from_line)
            });
        }
        for a in by_line.get(&line).into_iter().flatten() {
            figures.extend(access_figures(&a.counts, a.space));
            if let Some(w) = &a.as_written {
                for f in access_figures(w, a.space) {
                    figures.push(t!(lang, "analyze-text-as-written", figures = f));
                }
            }
            if let Some(m) = &a.merged {
                let merged = access_figures(m, a.space);
                if merged.is_empty() {
                    figures.push(t!(lang, "analyze-text-merged-none"));
                }
                for f in merged {
                    figures.push(t!(lang, "analyze-text-merged", figures = f));
                }
            }
        }
        if figures.is_empty() {
            let _ = writeln!(out, "{line:>5}  {:<52} | {text}", "");
        } else {
            for (i, f) in figures.iter().enumerate() {
                if i == 0 {
                    let _ = writeln!(out, "{line:>5}  {} | {text}", pad(f, 52));
                } else {
                    let _ = writeln!(out, "{:>5}  {} |", "", pad(f, 52));
                }
            }
        }
    }
    if skipped {
        let _ = writeln!(out, "{:>5}  {:<52} |", "…", "");
    }
    let _ = writeln!(out, "\n{}", t!(lang, "analyze-text-totals"));
    totals_text(&mut out, &report.totals, lang);
    if !report.assumed.is_empty() {
        let _ = writeln!(out, "  {}", t!(lang, "analyze-text-assumed"));
        for a in &report.assumed {
            let _ = writeln!(out, "    {}: {}", a.array, a.text(lang));
        }
    }
    divergence_text(&mut out, &report.divergence, lang);
    atomics_text(&mut out, report, lang);
    // The totals as written (where nvcc's merges are in the headline), then those if the
    // remaining merges were made, each with the merges it is about.
    let other_totals = [
        (
            &report.written_totals,
            t!(lang, "analyze-text-written-totals"),
            (|a: &AccessReport| a.as_written.is_some()) as fn(&AccessReport) -> bool,
        ),
        (
            &report.merged_totals,
            t!(lang, "analyze-text-merged-totals"),
            |a| a.merged.is_some(),
        ),
    ];
    for (totals, head, about) in other_totals {
        let Some(t) = totals else { continue };
        let _ = writeln!(out, "\n{head}");
        totals_text(&mut out, t, lang);
        for a in report.lines.iter().filter(|a| about(a)) {
            if let Some(note) = &a.merge_note {
                let _ = writeln!(
                    out,
                    "  {}:{} {}: {}",
                    a.line,
                    a.column,
                    a.text,
                    note.text(lang)
                );
            }
        }
    }
    // Accesses at one place with one text (a macro's or an inlined function's, used once, that
    // makes several) are one entry: their costs summed, the costliest one's reason shown.
    let mut costly: Vec<(&AccessReport, u64, u64)> = Vec::new();
    for a in report
        .lines
        .iter()
        .filter(|a| a.wasted_sectors > 0 || a.extra_wavefronts > 0)
    {
        let same = |b: &&mut (&AccessReport, u64, u64)| {
            (b.0.line, b.0.column, &b.0.text, b.0.space) == (a.line, a.column, &a.text, a.space)
        };
        match costly.iter_mut().find(same) {
            Some(entry) => {
                if a.wasted_sectors + a.extra_wavefronts
                    > entry.0.wasted_sectors + entry.0.extra_wavefronts
                {
                    entry.0 = a;
                }
                entry.1 += a.wasted_sectors;
                entry.2 += a.extra_wavefronts;
            }
            None => costly.push((a, a.wasted_sectors, a.extra_wavefronts)),
        }
    }
    costly.sort_by_key(|(_, w, e)| std::cmp::Reverse(w + e));
    if costly.is_empty() {
        let _ = writeln!(out, "\n{}", t!(lang, "analyze-text-no-waste"));
    } else {
        let _ = writeln!(out, "\n{}", t!(lang, "analyze-text-costliest"));
        for (a, wasted, extra) in costly.iter().take(5) {
            let what = if a.space == "global" {
                t!(lang, "analyze-text-wasted-sectors", n = *wasted)
            } else {
                t!(lang, "analyze-text-extra-wavefronts", n = *extra)
            };
            let _ = writeln!(
                out,
                "  {}:{} {}  {what}\n      {}",
                a.line,
                a.column,
                a.text,
                a.why.text(lang)
            );
        }
    }
    out
}

/// One access's figures, loads and stores apart: `ld 2 req 8 sec (4.0/req)`, `lds 1 inst 2 wf (2.0/inst) 1 confl`.
pub fn access_figures(c: &Totals, space: &str) -> Vec<String> {
    let mut figures = Vec::new();
    if space == "global" {
        if c.global_load_instructions > 0 {
            figures.push(format!(
                "ld {} req {} sec ({:.1}/req)",
                c.global_load_requests,
                c.global_load_sectors,
                ratio(c.global_load_sectors, c.global_load_requests)
            ));
        }
        if c.global_store_instructions > 0 {
            figures.push(format!(
                "st {} req {} sec ({:.1}/req)",
                c.global_store_requests,
                c.global_store_sectors,
                ratio(c.global_store_sectors, c.global_store_requests)
            ));
        }
    } else {
        if c.shared_load_instructions > 0 {
            figures.push(format!(
                "lds {} inst {} wf ({:.1}/inst) {} confl",
                c.shared_load_instructions,
                c.shared_load_wavefronts,
                ratio(c.shared_load_wavefronts, c.shared_load_instructions),
                c.shared_load_conflicts
            ));
        }
        if c.shared_store_instructions > 0 {
            figures.push(format!(
                "sts {} inst {} wf ({:.1}/inst) {} confl",
                c.shared_store_instructions,
                c.shared_store_wavefronts,
                ratio(c.shared_store_wavefronts, c.shared_store_instructions),
                c.shared_store_conflicts
            ));
        }
    }
    figures
}

fn totals_text(out: &mut String, t: &Totals, lang: Lang) {
    use std::fmt::Write;
    let labels = [
        t!(lang, "analyze-text-global-loads"),
        t!(lang, "analyze-text-global-stores"),
        t!(lang, "analyze-text-shared-loads"),
        t!(lang, "analyze-text-shared-stores"),
    ];
    // The labels' column: the widest label and two spaces, at least as wide as the English one.
    let width = labels.iter().map(|l| columns(l)).max().unwrap_or(0).max(13) + 2;
    let global = [
        (
            t.global_load_requests,
            t.global_load_sectors,
            ratio(t.global_load_sectors, t.global_load_requests),
        ),
        (
            t.global_store_requests,
            t.global_store_sectors,
            ratio(t.global_store_sectors, t.global_store_requests),
        ),
    ];
    for (label, (requests, sectors, per)) in labels.iter().zip(global) {
        let _ = writeln!(
            out,
            "  {}{}",
            pad(label, width),
            t!(
                lang,
                "analyze-text-global-figures",
                requests = requests,
                sectors = sectors,
                per = format!("{per:.2}")
            )
        );
    }
    let shared = [
        (
            t.shared_load_instructions,
            t.shared_load_wavefronts,
            t.shared_load_conflicts,
        ),
        (
            t.shared_store_instructions,
            t.shared_store_wavefronts,
            t.shared_store_conflicts,
        ),
    ];
    for (label, (instructions, wavefronts, conflicts)) in labels[2..].iter().zip(shared) {
        let _ = writeln!(
            out,
            "  {}{}",
            pad(label, width),
            t!(
                lang,
                "analyze-text-shared-figures",
                instructions = instructions,
                wavefronts = wavefronts,
                conflicts = conflicts
            )
        );
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("{x},{y}"),
        [x, y, z] => format!("{x},{y},{z}"),
    }
}
