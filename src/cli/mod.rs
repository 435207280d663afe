//! The command line: subcommands that call into the library.

pub mod analyze;
pub mod batch;
pub mod calc;
pub mod content;
pub mod json;
pub mod lab;
pub mod lab_net;
pub mod output;
pub mod puzzle;
pub mod review;
pub mod signals;
pub mod sweep;
pub mod tui;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// The help heading of the options every command takes.
const GLOBAL_OPTIONS: &str = "Global options";

/// warpdrill — a terminal tutor for GPU memory performance: coalescing, shared-memory banks,
/// occupancy, tiling and the roofline. Without a command it opens the tutor.
#[derive(Debug, Parser)]
#[command(
    name = "warpdrill",
    version = crate::content::builtin::version_text(),
    about,
    long_about = None
)]
pub struct Cli {
    /// Colour in the tutor: auto (on unless NO_COLOR is set), always, never.
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// Where progress and review state are kept (default: $WARPDRILL_DATA, else the platform data dir).
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Extra content (a folder with `content/` and `exercises/`): adds to the built-in content and
    /// replaces items with the same id.
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, value_name = "DIR")]
    pub content: Option<PathBuf>,
    /// Language: en (English), hi-Latn (Hinglish), ko (Korean). Default: $WARPDRILL_LANG, else the
    /// language set on Home (saved in settings.ron beside review.ron), else the locale (LC_ALL,
    /// LC_MESSAGES, LANG), else English.
    #[arg(long, global = true, help_heading = GLOBAL_OPTIONS, value_name = "LANG")]
    pub lang: Option<crate::i18n::Lang>,
    /// What to do; without a command the tutor opens on Home.
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// The language to speak: `--lang`, else `WARPDRILL_LANG`, else the language set on Home
    /// (the settings file), else the locale, else English.
    pub fn language(&self) -> Result<crate::i18n::Lang, crate::i18n::UnknownLang> {
        let saved = crate::app::settings::path().and_then(|p| crate::app::settings::peek(&p));
        crate::app::settings::choose(self.lang, saved, |var| std::env::var(var).ok())
    }
}

/// When to use colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// Colour unless the NO_COLOR environment variable is set (and not empty).
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorArg {
    /// Whether to colour, given the value of NO_COLOR.
    pub fn enabled(self, no_color: Option<&std::ffi::OsStr>) -> bool {
        match self {
            ColorArg::Always => true,
            ColorArg::Never => false,
            ColorArg::Auto => no_color.is_none_or(|v| v.is_empty()),
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the tutor on the lessons, or on one topic's lesson (`warpdrill learn coalescing`).
    Learn {
        /// The topic (hierarchy, coalescing, banks, occupancy, tiling, roofline, latency, amd).
        topic: Option<String>,
    },
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
    /// Review the flashcards due (spaced repetition); or fit the scheduler to your log, export the
    /// log.
    Review(review::ReviewArgs),
    /// Review statistics: true retention, cards by state, due forecast, heatmap, mastery, streak.
    Stats(review::StatsArgs),
    /// Flashcards: export to Anki, import from Anki.
    #[command(subcommand)]
    Cards(review::CardsCommand),
    /// Instructor-led labs: start one (students), keys, reports, checks and rosters (instructors).
    #[command(subcommand)]
    Lab(lab::LabCommand),
    /// Compute with the engine: coalescing, banks, occupancy, tiling, roofline, or a JSON-lines batch.
    #[command(subcommand)]
    Calc(CalcCommand),
    /// Analyse a CUDA kernel without a GPU: each line's sectors and bank conflicts over a launch.
    Analyze(analyze::AnalyzeArgs),
    /// Kernel puzzles: write a kernel in your editor; warpdrill runs it, checks it and grades its
    /// memory behaviour. Without a command it opens the puzzle list.
    Puzzle {
        /// What to do.
        #[command(subcommand)]
        command: Option<puzzle::PuzzleCommand>,
    },
    /// Grade one answer to one exercise variant (exit 0 correct, 1 wrong, 2 unusable input, 3 an
    /// explanation to compare with the model answer).
    Check(CheckArgs),
    /// For authors: validate content, preview every exercise's variant.
    #[command(subcommand)]
    Content(ContentCommand),
    /// Print a shell completion script: `warpdrill completions bash > ~/.local/share/bash-completion/completions/warpdrill`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
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
    /// Grade exact part N (1, 2 …) of an explanation exercise instead of the explanation.
    #[arg(long)]
    pub part: Option<usize>,
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
    /// Count a store instead of a load: the same sectors; in shared memory 8- and 16-byte stores
    /// never pair-merge (one 8-byte address stored by every lane: 2 wavefronts, loaded: 1).
    #[arg(long)]
    pub store: bool,
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
    /// Dynamic shared memory per block, bytes (2048, 24K, 48 KB, 0x6000).
    #[arg(long, default_value = "0", value_parser = crate::units::bytes_arg)]
    pub smem: u32,
    /// Static shared memory per block, bytes (2048, 24K, 48 KB, 0x6000).
    #[arg(long, default_value = "0", value_parser = crate::units::bytes_arg)]
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
    /// Peak compute, FLOP/s (67T, 67 TFLOP/s, 6.7e13).
    #[arg(long, default_value = "67T", value_parser = crate::units::flop_rate_arg, allow_hyphen_values = true)]
    pub peak_flops: f64,
    /// Peak memory bandwidth, bytes/s (4.8T, 4.8 TB/s, 4.8e12).
    #[arg(long, default_value = "4.8T", value_parser = crate::units::byte_rate_arg, allow_hyphen_values = true)]
    pub bandwidth: f64,
    /// Arithmetic intensity, FLOP per byte (0.25, 4 FLOP/B).
    #[arg(long, default_value = "0.25", value_parser = crate::units::intensity_arg, allow_hyphen_values = true)]
    pub intensity: f64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub use crate::engine::parse_mask;

fn finish(report: content::Report) -> ExitCode {
    report.print()
}

/// Runs one command line; returns the exit status.
pub fn run(cli: Cli) -> ExitCode {
    if let Err(report) = color_eyre::install() {
        self::output::stderr(&format!(
            "warning: could not install the error reporter: {report}\n"
        ));
    }
    let theme = crate::ui::Theme::new(!cli.color.enabled(std::env::var_os("NO_COLOR").as_deref()));
    let lang = match cli.language() {
        Ok(lang) => lang,
        Err(e) => {
            self::output::stderr(&format!("error: {e}\n"));
            return ExitCode::from(2);
        }
    };
    // A content folder's kernel puzzles join the built-in ones for the whole run; a file that
    // does not read is left out (`content check` names it).
    if let Some(dir) = cli.content.as_deref() {
        let _ = crate::puzzle::use_folder(dir);
    }
    match cli.command {
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut command = Cli::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut command, "warpdrill", &mut out);
            // Written as generated (not escaped like other output): it is a script.
            let mut stdout = std::io::stdout().lock();
            let written = std::io::Write::write_all(&mut stdout, &out)
                .and_then(|()| std::io::Write::flush(&mut stdout));
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => self::output::OutputError::from(e).exit(0),
            }
        }
        None => ExitCode::from(self::tui::run_with(
            cli.data_dir.as_deref(),
            cli.content.as_deref(),
            self::tui::Start::Home,
            theme,
            cli.lang,
        )),
        Some(Command::Explore(args)) => match args.to_setup() {
            Ok(setup) => ExitCode::from(self::tui::run_with(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Explorer(setup),
                theme,
                cli.lang,
            )),
            Err(message) => {
                self::output::stderr(&format!("error: {message}\n"));
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
            ExitCode::from(self::tui::run_with(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Calculators(tab),
                theme,
                cli.lang,
            ))
        }
        Some(Command::Learn { topic }) => ExitCode::from(self::tui::run_with(
            cli.data_dir.as_deref(),
            cli.content.as_deref(),
            self::tui::Start::Learn(topic),
            theme,
            cli.lang,
        )),
        Some(Command::Ladder { level }) => {
            let level = match level
                .as_deref()
                .map(|l| crate::content::schema::Level::parse(l).ok_or(l))
            {
                Some(Err(bad)) => {
                    self::output::stderr(&format!("error: unknown level `{bad}` (use L1 … L5)\n"));
                    return ExitCode::from(2);
                }
                Some(Ok(level)) => Some(level),
                None => None,
            };
            ExitCode::from(self::tui::run_with(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Ladder(level),
                theme,
                cli.lang,
            ))
        }
        Some(Command::Review(args)) if args.command.is_none() => {
            ExitCode::from(self::tui::run_with(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Review {
                    topic: args.topic,
                    new: args.new,
                    flags: args.review,
                },
                theme,
                cli.lang,
            ))
        }
        Some(command @ (Command::Stats(_) | Command::Review(_) | Command::Cards(_))) => {
            review::run_in(
                command,
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                lang,
            )
        }
        Some(Command::Lab(command)) => {
            self::lab::run_in(command, cli.content.as_deref(), theme, lang)
        }
        Some(Command::Content(ContentCommand::Check { dir, json })) => finish(
            // The translation check runs only when asked for with --lang, so `content check`
            // stays the English check (its summary in the language spoken).
            self::content::check_translations(
                dir.as_deref().or(cli.content.as_deref()),
                json,
                cli.lang,
                lang,
            ),
        ),
        Some(Command::Content(ContentCommand::Preview { seed, level, json })) => {
            match self::content::load_in(cli.content.as_deref(), lang) {
                Ok(content) => finish(self::content::preview_in(
                    &content.in_lang(lang),
                    seed,
                    level.as_deref(),
                    json,
                    lang,
                )),
                Err(code) => code,
            }
        }
        Some(Command::Analyze(args)) if args.opens_screen() => match self::analyze::setup(&args) {
            Ok(setup) => ExitCode::from(self::tui::run_with(
                cli.data_dir.as_deref(),
                cli.content.as_deref(),
                self::tui::Start::Analyze(Box::new(setup)),
                theme,
                cli.lang,
            )),
            Err(message) => {
                self::output::stderr(&format!("warpdrill: {message}\n"));
                ExitCode::from(2)
            }
        },
        Some(Command::Analyze(args)) => self::analyze::run_in(&args, lang),
        Some(Command::Puzzle {
            command: Some(command),
        }) => self::puzzle::run_in(command, cli.data_dir.as_deref(), lang),
        Some(Command::Puzzle { command: None }) => ExitCode::from(self::tui::run_with(
            cli.data_dir.as_deref(),
            cli.content.as_deref(),
            self::tui::Start::Puzzles,
            theme,
            cli.lang,
        )),
        Some(Command::Check(args)) => match self::content::load_in(cli.content.as_deref(), lang) {
            Ok(content) => finish(self::content::check_answer_in(
                &content.in_lang(lang),
                &args,
                lang,
            )),
            Err(code) => code,
        },
        Some(Command::Calc(calc)) => {
            let answer = match &calc {
                CalcCommand::Coalescing(args) => self::calc::coalescing_in(args, lang),
                CalcCommand::Banks(args) => self::calc::banks_in(args, lang),
                CalcCommand::Occupancy(args) => self::calc::occupancy_in(args, lang),
                CalcCommand::Tiling(args) => self::calc::tiling_in(args, lang),
                CalcCommand::Roofline(args) => self::calc::roofline_in(args, lang),
                CalcCommand::Sweep(sweep) => {
                    let stdout = std::io::stdout().lock();
                    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout);
                    return match self::sweep::run(sweep, &mut out) {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(self::sweep::SweepError::Input(message)) => {
                            self::output::stderr(&format!("error: {message}\n"));
                            ExitCode::from(2)
                        }
                        Err(self::sweep::SweepError::Io(e))
                            if e.kind() == std::io::ErrorKind::BrokenPipe =>
                        {
                            ExitCode::SUCCESS
                        }
                        Err(self::sweep::SweepError::Io(e)) => {
                            self::output::stderr(&format!("error: cannot write the sweep: {e}\n"));
                            ExitCode::from(74)
                        }
                    };
                }
                CalcCommand::Batch => return self::batch::run_stdio(),
            };
            match answer {
                Ok(text) if text.ends_with('\n') => self::output::finish(&text, "", 0),
                Ok(text) => self::output::finish(&format!("{text}\n"), "", 0),
                Err(message) => self::output::finish(
                    "",
                    &format!("{}\n", crate::t!(lang, "cli-error", message = message)),
                    2,
                ),
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
