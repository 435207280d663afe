//! The command line: subcommands that call into the library.

pub mod batch;
pub mod calc;
pub mod content;
pub mod json;
pub mod sweep;
pub mod tui;

use crate::content::Content;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// warpdrill — a terminal tutor for GPU memory performance: coalescing, shared-memory banks,
/// occupancy, tiling and the roofline. Without a command it opens the tutor.
#[derive(Debug, Parser)]
#[command(name = "warpdrill", version, about, long_about = None)]
pub struct Cli {
    /// Where progress and review state are kept (default: $WARPDRILL_DATA, else the platform data dir).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Extra content (a folder with `content/` and `exercises/`): adds to the built-in content and
    /// replaces items with the same id.
    #[arg(long, global = true, value_name = "DIR")]
    pub content: Option<PathBuf>,
    /// What to do; without a command the tutor opens on Home.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute with the engine: coalescing, banks, occupancy, tiling, roofline, or a JSON-lines batch.
    #[command(subcommand)]
    Calc(CalcCommand),
    /// For authors: validate content, preview every exercise's variant.
    #[command(subcommand)]
    Content(ContentCommand),
    /// Grade one answer to one exercise variant (exit 0 correct, 1 wrong, 2 unusable input).
    Check(CheckArgs),
    /// Open the tutor on the exercise ladder.
    Ladder {
        /// The level to show (L1 … L5).
        #[arg(long)]
        level: Option<String>,
    },
    /// Open the explorer: live warp → sectors and lanes → banks diagrams.
    Explore(ExploreArgs),
    /// Open the calculators: occupancy (with what-if plots), tiling, roofline.
    Calculators {
        /// Which one to show first.
        #[arg(value_enum, default_value_t = CalculatorArg::Occupancy)]
        which: CalculatorArg,
    },
}

/// `warpdrill calculators [occupancy|tiling|roofline]`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CalculatorArg {
    /// Occupancy with what-if plots.
    Occupancy,
    /// Tiled matrix multiply.
    Tiling,
    /// Roofline chart.
    Roofline,
}

/// Memory space for the explorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SpaceArg {
    /// Global memory: sectors.
    Global,
    /// Shared memory: banks.
    Shared,
}

/// `warpdrill explore …`: every access flag of `calc coalescing`, plus the memory space.
#[derive(Debug, Clone, Args)]
pub struct ExploreArgs {
    /// Memory space.
    #[arg(long, value_enum, default_value_t = SpaceArg::Global)]
    pub space: SpaceArg,
    /// The access pattern.
    #[command(flatten)]
    pub pattern: PatternArgs,
}

/// `warpdrill content …`
#[derive(Debug, Subcommand)]
pub enum ContentCommand {
    /// Load and validate content: syntax, fields, ids, placeholders, answers for every parameter choice.
    Check {
        /// A folder laid out like the repository (`content/`, `exercises/`); default: the built-in content.
        dir: Option<PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Print every exercise's variant for a seed — prompt and answer — for proofreading.
    Preview {
        /// The seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Only this level (L1 … L5).
        #[arg(long)]
        level: Option<String>,
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
}

/// `warpdrill check`
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Exercise id (see `warpdrill content preview`).
    pub exercise: String,
    /// Variant seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The answer, as a learner would type it (`62.5%`, `b`, `regs, smem, L2, DRAM`).
    #[arg(long, allow_hyphen_values = true)]
    pub answer: String,
}

/// `warpdrill calc …`
#[derive(Debug, Subcommand)]
pub enum CalcCommand {
    /// Sectors, lines, requests and efficiency of one warp's global load.
    Coalescing(AccessArgs),
    /// Bank of every lane, wavefronts and bank conflicts of one warp's shared-memory load.
    Banks(AccessArgs),
    /// Resident blocks and warps per SM, the limiter(s), and the textbook bound beside them.
    Occupancy(OccupancyArgs),
    /// Global reads of an N×N matrix multiply, naive against tiled.
    Tiling(TilingArgs),
    /// Where a kernel of given arithmetic intensity sits on the roofline.
    Roofline(RooflineArgs),
    /// Read JSON lines on stdin, write one JSON answer per line (see README for the schema).
    Batch,
    /// One figure against one or two parameters: `calc sweep coalescing --vary stride=1..256`.
    #[command(subcommand)]
    Sweep(SweepCommand),
}

/// Which way a 2D walk goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Walk {
    /// Lane t reads (row, col + t).
    Row,
    /// Lane t reads (row + t, col).
    Column,
}

/// Fetch unit for coalescing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GranularityArg {
    /// 32-byte sectors.
    Sector,
    /// 128-byte lines.
    Line,
}

/// One warp's access pattern (shared by `calc coalescing`, `calc banks` and `explore`).
#[derive(Debug, Clone, Args)]
pub struct PatternArgs {
    /// Architecture: sm_70 … sm_120, a compute capability (8.6), a GPU (H100, "RTX 4090"),
    /// kepler, pascal, gfx90a, gfx942, rdna3.
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// Bytes per lane: 1, 2, 4, 8 or 16.
    #[arg(long, default_value_t = 4)]
    pub elem: u32,
    /// Elements between neighbouring lanes (negative and zero allowed).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
    pub stride: i64,
    /// Element lane 0 reads (negative allowed).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub offset: i64,
    /// Byte address of element 0 (alignment of the array).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub base: i64,
    /// Active lanes: hex (0xffff), decimal, or all / half / odd / even / firstN.
    #[arg(long)]
    pub mask: Option<String>,
    /// Explicit byte offset per lane, comma-separated, lane 0 first (replaces stride/offset).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, conflicts_with_all = ["stride", "offset", "struct_size", "pitch"])]
    pub offsets: Option<Vec<i64>>,
    /// Array of structs: struct size in bytes; lane t reads the field of struct t.
    #[arg(long, conflicts_with = "pitch")]
    pub struct_size: Option<i64>,
    /// Byte offset of the field inside the struct.
    #[arg(long, default_value_t = 0, requires = "struct_size")]
    pub field_offset: i64,
    /// 2D row-major array: bytes per row.
    #[arg(long)]
    pub pitch: Option<i64>,
    /// 2D walk direction.
    #[arg(long, value_enum, default_value_t = Walk::Row, requires = "pitch")]
    pub walk: Walk,
    /// Count 32-byte sectors or 128-byte lines (default: the architecture's unit).
    #[arg(long, value_enum)]
    pub granularity: Option<GranularityArg>,
}

/// `calc coalescing` / `calc banks`: a pattern, printed as text or JSON.
#[derive(Debug, Clone, Args)]
pub struct AccessArgs {
    /// The access pattern.
    #[command(flatten)]
    pub pattern: PatternArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A kernel configuration (shared by `calc occupancy` and `calc sweep occupancy`).
#[derive(Debug, Clone, Args)]
pub struct KernelArgs {
    /// Architecture (sm_70 … sm_120, 9.0, H100, …; gfx90a/gfx942/rdna3 count waves per SIMD).
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// Threads per block.
    #[arg(long, default_value_t = 256)]
    pub block_size: u32,
    /// Registers per thread (0 = not limiting); VGPRs per lane on AMD.
    #[arg(long, default_value_t = 32)]
    pub regs: u32,
    /// Dynamic shared memory per block, bytes.
    #[arg(long, default_value_t = 0)]
    pub smem: u32,
    /// Static shared memory per block, bytes.
    #[arg(long, default_value_t = 0)]
    pub static_smem: u32,
    /// Shared-memory carveout preference: -1 = default, else 0–100 %.
    #[arg(long, default_value_t = -1, allow_hyphen_values = true)]
    pub carveout: i64,
}

/// `calc occupancy`: a kernel configuration, printed as text or JSON.
#[derive(Debug, Clone, Args)]
pub struct OccupancyArgs {
    /// The kernel.
    #[command(flatten)]
    pub kernel: KernelArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `warpdrill calc sweep …`: one row per value of one parameter (two `--vary` give a grid).
#[derive(Debug, Subcommand)]
pub enum SweepCommand {
    /// Sectors, lines and efficiency of a global load against one or two parameters.
    Coalescing(AccessSweepArgs),
    /// Wavefronts and bank conflicts of a shared-memory load against one or two parameters.
    Banks(AccessSweepArgs),
    /// Occupancy against one or two of block_size, regs, smem, static_smem, carveout.
    Occupancy(OccupancySweepArgs),
}

/// How a sweep varies and prints.
#[derive(Debug, Clone, Args)]
pub struct SweepFlags {
    /// What to vary: NAME=START..END[:STEP] or NAME=VALUE (inclusive). Access sweeps: stride,
    /// offset, elem, struct_size, lanes, pitch; occupancy: block_size, regs, smem, static_smem,
    /// carveout. Give it twice for a grid (the first varies slowest).
    #[arg(
        long,
        required = true,
        value_name = "NAME=RANGE",
        allow_hyphen_values = true
    )]
    pub vary: Vec<String>,
    /// Print CSV (a header, then one line per point).
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Print a JSON array, one object per point (the fields of `calc … --json` and the values varied).
    #[arg(long)]
    pub json: bool,
}

/// `calc sweep coalescing|banks`.
#[derive(Debug, Clone, Args)]
pub struct AccessSweepArgs {
    /// The access pattern the sweep starts from.
    #[command(flatten)]
    pub pattern: PatternArgs,
    /// What to vary and how to print.
    #[command(flatten)]
    pub sweep: SweepFlags,
}

/// `calc sweep occupancy`.
#[derive(Debug, Clone, Args)]
pub struct OccupancySweepArgs {
    /// The kernel the sweep starts from.
    #[command(flatten)]
    pub kernel: KernelArgs,
    /// What to vary and how to print.
    #[command(flatten)]
    pub sweep: SweepFlags,
}

/// A tiled matrix multiply.
#[derive(Debug, Clone, Args)]
pub struct TilingArgs {
    /// Matrix size N (N×N).
    #[arg(long, default_value_t = 1024)]
    pub n: u64,
    /// Tile size T (T×T threads per block).
    #[arg(long, default_value_t = 16)]
    pub tile: u64,
    /// Bytes per element.
    #[arg(long, default_value_t = 4)]
    pub elem: u32,
    /// Architecture for blocks per SM and occupancy.
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// Registers per thread of the tiled kernel (for its occupancy).
    #[arg(long, default_value_t = 32)]
    pub regs: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A roofline point.
#[derive(Debug, Clone, Args)]
pub struct RooflineArgs {
    /// Peak compute, FLOP/s (e.g. 67e12).
    #[arg(long, default_value_t = 67e12)]
    pub peak_flops: f64,
    /// Peak memory bandwidth, bytes/s (e.g. 4.8e12).
    #[arg(long, default_value_t = 4.8e12)]
    pub bandwidth: f64,
    /// Arithmetic intensity, FLOP per byte.
    #[arg(long, default_value_t = 0.25)]
    pub intensity: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub use crate::engine::parse_mask;

fn finish(report: content::Report) -> ExitCode {
    print!("{}", report.stdout);
    eprint!("{}", report.stderr);
    ExitCode::from(report.code)
}

/// The built-in content plus `--content DIR`, or the reason it cannot be read.
fn load_content(dir: Option<&std::path::Path>) -> Result<Content, ExitCode> {
    let content = crate::ladder::check::with_dir(dir).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    if !content.problems.is_empty() {
        eprintln!(
            "warning: {} content problem(s) — those items were skipped (see `warpdrill content check`):",
            content.problems.len()
        );
        for problem in content.problems.iter().take(5) {
            eprintln!("  {problem}");
        }
    }
    Ok(content)
}

/// Runs one command line; returns the exit status.
pub fn run(cli: Cli) -> ExitCode {
    if let Err(report) = color_eyre::install() {
        eprintln!("warning: could not install the error reporter: {report}");
    }
    match cli.command {
        None => ExitCode::from(self::tui::run(
            cli.data_dir.as_deref(),
            cli.content.as_deref(),
            self::tui::Start::Home,
        )),
        Some(Command::Explore(args)) => match args.to_setup() {
            Ok(setup) => ExitCode::from(self::tui::run(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Explorer(setup),
            )),
            Err(message) => {
                eprintln!("error: {message}");
                ExitCode::from(2)
            }
        },
        Some(Command::Calculators { which }) => {
            use crate::ui::Tab;
            let tab = match which {
                self::CalculatorArg::Occupancy => Tab::Occupancy,
                self::CalculatorArg::Tiling => Tab::Tiling,
                self::CalculatorArg::Roofline => Tab::Roofline,
            };
            ExitCode::from(self::tui::run(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Calculators(tab),
            ))
        }
        Some(Command::Ladder { level }) => {
            let level = match level
                .as_deref()
                .map(|l| crate::content::schema::Level::parse(l).ok_or(l))
            {
                Some(Err(bad)) => {
                    eprintln!("error: unknown level `{bad}` (use L1 … L5)");
                    return ExitCode::from(2);
                }
                Some(Ok(level)) => Some(level),
                None => None,
            };
            ExitCode::from(self::tui::run(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Ladder(level),
            ))
        }
        Some(Command::Content(ContentCommand::Check { dir, json })) => finish(
            self::content::check(dir.as_deref().or(cli.content.as_deref()), json),
        ),
        Some(Command::Content(ContentCommand::Preview { seed, level, json })) => {
            match load_content(cli.content.as_deref()) {
                Ok(content) => finish(self::content::preview(
                    &content,
                    seed,
                    level.as_deref(),
                    json,
                )),
                Err(code) => code,
            }
        }
        Some(Command::Check(args)) => match load_content(cli.content.as_deref()) {
            Ok(content) => finish(self::content::check_answer(&content, &args)),
            Err(code) => code,
        },
        Some(Command::Calc(calc)) => {
            let answer = match &calc {
                CalcCommand::Coalescing(args) => self::calc::coalescing(args),
                CalcCommand::Banks(args) => self::calc::banks(args),
                CalcCommand::Occupancy(args) => self::calc::occupancy(args),
                CalcCommand::Tiling(args) => self::calc::tiling(args),
                CalcCommand::Roofline(args) => self::calc::roofline(args),
                CalcCommand::Sweep(sweep) => {
                    let stdout = std::io::stdout().lock();
                    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout);
                    return match self::sweep::run(sweep, &mut out) {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(self::sweep::SweepError::Input(message)) => {
                            eprintln!("error: {message}");
                            ExitCode::from(2)
                        }
                        Err(self::sweep::SweepError::Io(e)) => {
                            eprintln!("error: cannot write the sweep: {e}");
                            ExitCode::from(1)
                        }
                    };
                }
                CalcCommand::Batch => {
                    let stdin = std::io::stdin().lock();
                    let stdout = std::io::stdout().lock();
                    return match self::batch::run(stdin, stdout) {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(e) => {
                            eprintln!("error: cannot read requests from stdin: {e}");
                            ExitCode::from(1)
                        }
                    };
                }
            };
            match answer {
                Ok(text) => {
                    print!("{text}");
                    if !text.ends_with('\n') {
                        println!();
                    }
                    ExitCode::SUCCESS
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
