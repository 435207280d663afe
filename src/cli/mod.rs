//! The command line: subcommands that call into the library.

pub mod batch;
pub mod calc;
pub mod content;
pub mod json;
pub mod review;
pub mod tui;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

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
    /// Review statistics: true retention, cards by state, due forecast, heatmap, mastery, streak.
    Stats(review::StatsArgs),
    /// Spaced-repetition review: fit the scheduler to your log, export the log.
    #[command(subcommand)]
    Review(review::ReviewCommand),
    /// Flashcards: export to Anki, import from Anki.
    #[command(subcommand)]
    Cards(review::CardsCommand),
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

/// `warpdrill explore …`
#[derive(Debug, Clone, Args)]
pub struct ExploreArgs {
    /// Architecture (sm_90, H100, kepler, gfx942, …).
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// Memory space.
    #[arg(long, value_enum, default_value_t = SpaceArg::Global)]
    pub space: SpaceArg,
    /// Bytes per lane: 1, 2, 4, 8 or 16.
    #[arg(long, default_value_t = 4)]
    pub elem: u32,
    /// Stride in elements (negative allowed).
    #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
    pub stride: i64,
    /// Offset in elements (negative allowed).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    pub offset: i64,
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

/// One warp's access pattern.
#[derive(Debug, Clone, Args)]
pub struct AccessArgs {
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
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A kernel configuration.
#[derive(Debug, Clone, Args)]
pub struct OccupancyArgs {
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
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
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

/// Parses an active-lane mask: `0xffff`, `0b1011`, `65535`, `all`, `half`, `odd`, `even`, `first8`.
pub fn parse_mask(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_lowercase().replace('_', "");
    let bad = || {
        format!(
            "active mask `{text}` is not a mask: use hex (0xffffffff), decimal, or all / half / odd / even / firstN"
        )
    };
    let parsed = if let Some(hex) = t.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).ok()
    } else if let Some(bin) = t.strip_prefix("0b") {
        u64::from_str_radix(bin, 2).ok()
    } else if let Some(n) = t.strip_prefix("first") {
        n.trim_start_matches([':', ' ', '='])
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= 64)
            .map(crate::engine::full_mask)
    } else {
        match t.as_str() {
            "all" | "full" => Some(u64::MAX),
            "half" => Some(0xffff),
            "odd" => Some(0xaaaa_aaaa_aaaa_aaaa),
            "even" => Some(0x5555_5555_5555_5555),
            _ => t.parse::<u64>().ok(),
        }
    };
    parsed.ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn masks_in_every_spelling() {
        assert_eq!(parse_mask("0x0000ffff"), Ok(0xffff));
        assert_eq!(parse_mask("0xFFFF_FFFF"), Ok(0xffff_ffff));
        assert_eq!(parse_mask("3"), Ok(3));
        assert_eq!(parse_mask("first8"), Ok(0xff));
        assert_eq!(parse_mask("odd").map(|m| m & 0xf), Ok(0xa));
        assert!(parse_mask("lots").is_err());
        assert!(parse_mask("0xZZ").is_err());
    }
}
