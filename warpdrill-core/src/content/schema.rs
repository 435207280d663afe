//! The RON formats of topics, flashcards and exercise templates (documented in CONTENT.md).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `content/topics.ron`: the topics everything else links to.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "Topics")]
pub struct TopicFile {
    /// The topics.
    pub topics: Vec<Topic>,
}

/// A subject of study (`coalescing`, `banks`, …).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Topic {
    /// Stable id, referenced by cards and exercises.
    pub id: String,
    /// Display name.
    pub name: String,
    /// One or two sentences on what it covers.
    pub description: String,
    /// The idea in words a twelve-year-old would follow.
    pub analogy: String,
}

/// `content/lessons/<id>.ron`: a lesson, read before a topic's ladder — a few pages, each prose
/// whose numbers come from the engine, most with a live diagram the learner steers, one a faded
/// example the learner finishes (CONTENT.md, "Lessons").
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "Lesson")]
pub struct Lesson {
    /// Stable id (progress attaches to it); by convention the topic's id.
    pub id: String,
    /// Topic id: the lesson is that topic's, and hands off to its exercises.
    pub topic: String,
    /// Title.
    pub title: String,
    /// The pages, in order.
    pub steps: Vec<LessonStep>,
}

/// One page of a lesson.
///
/// Its `controls` are the parameters the learner steers (←→ on the page); its `values` are
/// computed from them like an exercise's; `text` shows them through `{placeholders}`. The first
/// engine query among the values is drawn live below the text (lanes → sectors, lanes → banks, the
/// occupancy limits, the roofline), so the diagram and the sentence change together. A page with an
/// `exercise` is a faded example: the worked steps are in the exercise's prompt, the last one is
/// the learner's, graded like any exercise (its parameters are drawn from a seed).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    /// The page's heading.
    pub title: String,
    /// The page's prose, with `{placeholders}` over the controls and values.
    #[serde(default)]
    pub text: String,
    /// What the learner can change on this page, in order.
    #[serde(default)]
    pub controls: Vec<Control>,
    /// Computed values, evaluated in order over the controls (as an exercise's `values`).
    #[serde(default)]
    pub values: Vec<(String, Query)>,
    /// A faded example: an exercise template shown on this page (never on the ladder).
    #[serde(default)]
    pub exercise: Option<ExerciseTemplate>,
}

/// A parameter a lesson page lets the learner change.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Control {
    /// Its name in expressions and placeholders (`stride`).
    pub name: String,
    /// What the page calls it (`stride (elements)`).
    pub label: String,
    /// The values it steps through, as an exercise parameter's (`Choice([1, 2, 4])`,
    /// `Range(min: 32, max: 1024, step: 32)`).
    pub values: Param,
    /// Where it starts (default: the first value); must be one of the values.
    #[serde(default)]
    pub start: Option<f64>,
}

/// A file of flashcards under `content/`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename = "Deck")]
pub struct DeckFile {
    /// The cards.
    pub cards: Vec<Card>,
}

/// A flashcard. Review history attaches to `id`, so editing the text keeps the history.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// Stable id.
    pub id: String,
    /// Topic id.
    pub topic: String,
    /// Free tags for search.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The question side (`*emphasis*` and `` `code` `` allowed).
    pub front: String,
    /// The answer side (for a drill card: the rule, shown after the graded answer).
    pub back: String,
    /// A drill card: the id of an exercise template. Each review draws a fresh variant of it, the
    /// learner types the answer, and the ladder's grader marks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drill: Option<String>,
    /// The skill this card practises (`stride-sectors`): an exercise naming the same skill brings
    /// this card forward when it is answered wrong on the ladder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// Revision: bump it when the card's meaning changes and its review history should start over.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rev: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A file of exercise templates under `exercises/`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "Exercises")]
pub struct ExerciseFile {
    /// The templates.
    pub exercises: Vec<ExerciseTemplate>,
}

/// A rung of the ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
pub enum Level {
    /// Recognition: name and place things.
    L1,
    /// Application: plug numbers into a rule.
    L2,
    /// Analysis: compare options and say why.
    L3,
    /// Synthesis: combine rules into a design.
    L4,
    /// Mastery: estimate, invent, defend.
    L5,
}

impl Level {
    /// All levels in order.
    pub const ALL: [Level; 5] = [Level::L1, Level::L2, Level::L3, Level::L4, Level::L5];

    /// `L3`.
    pub fn key(self) -> &'static str {
        match self {
            Level::L1 => "L1",
            Level::L2 => "L2",
            Level::L3 => "L3",
            Level::L4 => "L4",
            Level::L5 => "L5",
        }
    }

    /// `Recognition`, `Application`, …
    pub fn name(self) -> &'static str {
        match self {
            Level::L1 => "Recognition",
            Level::L2 => "Application",
            Level::L3 => "Analysis",
            Level::L4 => "Synthesis",
            Level::L5 => "Mastery",
        }
    }

    /// Parses `L3`, `l3` or `3`.
    pub fn parse(text: &str) -> Option<Level> {
        let t = text.trim().trim_start_matches(['L', 'l']);
        match t {
            "1" => Some(Level::L1),
            "2" => Some(Level::L2),
            "3" => Some(Level::L3),
            "4" => Some(Level::L4),
            "5" => Some(Level::L5),
            _ => None,
        }
    }

    /// 0 for L1 … 4 for L5.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// An exercise template: parameters drawn from a seed, and everything else computed from them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExerciseTemplate {
    /// Stable id (progress attaches to it).
    pub id: String,
    /// Rung of the ladder.
    pub level: Level,
    /// Topic id.
    pub topic: String,
    /// The skill it exercises (`stride-sectors`): a wrong answer brings forward the cards that
    /// name the same skill (`content check` requires at least one).
    #[serde(default)]
    pub skill: Option<String>,
    /// Short title.
    pub title: String,
    /// Parameters, drawn in name order.
    #[serde(default)]
    pub params: BTreeMap<String, Param>,
    /// Computed values, evaluated in order; each may use the parameters and earlier values.
    #[serde(default)]
    pub values: Vec<(String, Query)>,
    /// The question, with `{placeholders}`.
    pub prompt: String,
    /// How the answer is computed and graded.
    pub answer: AnswerSpec,
    /// Progressive hints (at least two), with placeholders.
    pub hints: Vec<String>,
    /// The worked explanation shown after answering, with placeholders.
    pub explanation: String,
    /// Wrong answers on the same numbers before the answer and the worked explanation are shown
    /// (1 to 9; default 2).
    #[serde(default)]
    pub tries: Option<u32>,
    /// Named misconceptions: a wrong numeric answer equal to one of them (within the answer's
    /// tolerance) gets that mistake's feedback.
    #[serde(default)]
    pub mistakes: Vec<Mistake>,
}

/// Tries on the same numbers when a template sets none.
pub const DEFAULT_TRIES: u32 = 2;

impl ExerciseTemplate {
    /// Wrong answers on the same numbers before the answer is shown (`tries`, default 2).
    pub fn tries(&self) -> u32 {
        self.tries.unwrap_or(DEFAULT_TRIES)
    }
}

/// A classic wrong answer of a template, computed like the answer itself.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mistake {
    /// The misconception, as feedback names it (`Textbook occupancy`).
    pub name: String,
    /// Expression over the parameters and values: the number a learner with this misconception
    /// gives, in the answer's base unit.
    pub value: String,
    /// What to rethink, with placeholders; it never states the answer.
    pub feedback: String,
}

/// How a parameter is drawn.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub enum Param {
    /// One of these numbers.
    Choice(Vec<f64>),
    /// An integer from `min` to `max` inclusive, in steps of `step` (default 1).
    Range {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Step between values.
        #[serde(default = "one")]
        step: i64,
    },
    /// One of these words (architecture names, kernel names).
    Text(Vec<String>),
}

fn one() -> i64 {
    1
}

/// A computed value: an expression, or one field of an engine calculation. Every numeric argument is an
/// expression over the parameters and earlier values (`"stride * 2"`); `arch` is a text parameter's
/// name or an architecture name.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Query {
    /// Arithmetic over parameters and values.
    Expr(String),
    /// `engine::coalesce` on an affine, struct-field or 2D pattern.
    Coalescing {
        /// Architecture (default `sm_90`).
        #[serde(default)]
        arch: Option<String>,
        /// Bytes per lane.
        elem: String,
        /// Stride in elements (affine and 2D row walks).
        #[serde(default)]
        stride: Option<String>,
        /// Offset in elements.
        #[serde(default)]
        offset: Option<String>,
        /// Base address in bytes.
        #[serde(default)]
        base: Option<String>,
        /// Active lanes, counted from lane 0 (default: the whole warp).
        #[serde(default)]
        lanes: Option<String>,
        /// Struct size in bytes (array of structs).
        #[serde(default)]
        struct_size: Option<String>,
        /// Field offset in bytes (array of structs).
        #[serde(default)]
        field_offset: Option<String>,
        /// Row pitch in bytes (2D walk).
        #[serde(default)]
        pitch: Option<String>,
        /// Walk down a column (2D walk).
        #[serde(default)]
        column: bool,
        /// Count in lines instead of the architecture's unit.
        #[serde(default)]
        lines: bool,
        /// A load (the default) or a store; global stores count sectors as loads do.
        #[serde(default)]
        op: AccessOp,
        /// Which number to take.
        field: CoalescingField,
    },
    /// `engine::bank_conflicts` on an affine pattern.
    Banks {
        /// Architecture (default `sm_90`).
        #[serde(default)]
        arch: Option<String>,
        /// Bytes per lane.
        elem: String,
        /// Stride in elements.
        stride: String,
        /// Offset in elements.
        #[serde(default)]
        offset: Option<String>,
        /// Active lanes from lane 0.
        #[serde(default)]
        lanes: Option<String>,
        /// A load (the default) or a store: 8- and 16-byte shared stores never pair-merge, so 32
        /// lanes storing one `double` take 2 wavefronts where loading it takes 1.
        #[serde(default)]
        op: AccessOp,
        /// Which number to take.
        field: BankField,
    },
    /// `engine::occupancy`.
    Occupancy {
        /// Architecture (default `sm_90`).
        #[serde(default)]
        arch: Option<String>,
        /// Threads per block.
        block_size: String,
        /// Registers per thread.
        regs: String,
        /// Dynamic shared memory per block, bytes.
        #[serde(default)]
        smem: Option<String>,
        /// Static shared memory per block, bytes.
        #[serde(default)]
        static_smem: Option<String>,
        /// Carveout percentage (-1 = default).
        #[serde(default)]
        carveout: Option<String>,
        /// Which number to take.
        field: OccupancyField,
    },
    /// `engine::amd_waves`.
    AmdWaves {
        /// AMD architecture.
        arch: String,
        /// VGPRs per lane.
        vgprs: String,
        /// Which number to take.
        field: AmdField,
    },
    /// `engine::tiling`.
    Tiling {
        /// Matrix size.
        n: String,
        /// Tile size.
        tile: String,
        /// Bytes per element.
        elem: String,
        /// Architecture for blocks per SM.
        #[serde(default)]
        arch: Option<String>,
        /// Which number to take.
        field: TilingField,
    },
    /// `engine::roofline`.
    Roofline {
        /// Peak FLOP/s.
        peak_flops: String,
        /// Peak bytes/s.
        bandwidth: String,
        /// FLOP per byte.
        intensity: String,
        /// Which number to take.
        field: RooflineField,
    },
    /// A figure measured on an NVIDIA H200 (`engine::measured`): `Measured(L2Latency)`,
    /// `Measured(StrideBandwidth(32))`.
    Measured(crate::engine::measured::Fact),
    /// A figure of an architecture preset.
    Arch {
        /// Architecture.
        arch: String,
        /// Which figure.
        field: ArchField,
    },
}

/// Whether a `Coalescing` or `Banks` query counts a load or a store (`op: Store`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub enum AccessOp {
    /// The warp reads (the default).
    #[default]
    Load,
    /// The warp writes: global sectors as for a load; shared 8- and 16-byte stores never
    /// pair-merge their phases.
    Store,
}

impl AccessOp {
    /// The engine's operation.
    pub fn op(self) -> crate::engine::Op {
        match self {
            AccessOp::Load => crate::engine::Op::Load,
            AccessOp::Store => crate::engine::Op::Store,
        }
    }
}

/// Numbers of a coalescing analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum CoalescingField {
    /// 32-byte sectors.
    Sectors,
    /// 128-byte lines.
    Lines,
    /// Units fetched in the chosen granularity.
    Transactions,
    /// Requests.
    Requests,
    /// Active lanes × element size.
    BytesRequested,
    /// Units × unit size.
    BytesFetched,
    /// Requested / fetched (0–1).
    Efficiency,
    /// 1 − efficiency.
    Waste,
}

/// Numbers of a bank analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum BankField {
    /// Wavefronts.
    Wavefronts,
    /// Wavefronts with no conflict.
    IdealWavefronts,
    /// Wavefronts − ideal.
    BankConflicts,
    /// Wavefronts / ideal.
    ConflictDegree,
    /// Bank of the given lane.
    BankOfLane(u32),
}

/// Numbers of an occupancy calculation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum OccupancyField {
    /// Resident blocks per SM.
    ActiveBlocks,
    /// Resident warps per SM.
    ActiveWarps,
    /// Maximum warps per SM.
    MaxWarps,
    /// Occupancy (0–1).
    Occupancy,
    /// Blocks allowed by warps.
    WarpLimit,
    /// Blocks allowed by registers.
    RegisterLimit,
    /// Blocks allowed by shared memory.
    SharedMemoryLimit,
    /// Blocks allowed by the block limit.
    BlockLimit,
    /// Registers allocated per warp.
    RegsPerWarp,
    /// Registers allocated per block.
    RegsPerBlock,
    /// Shared memory allocated per block.
    SmemPerBlock,
    /// Carveout in bytes.
    CarveoutBytes,
    /// Textbook `floor(65536 / r)` threads.
    TextbookThreads,
    /// Textbook threads rounded to warps.
    TextbookWarpRoundedThreads,
    /// Textbook occupancy (0–1).
    TextbookOccupancy,
    /// 1 if this limiter binds, else 0.
    LimitedByWarps,
    /// 1 if registers bind.
    LimitedByRegisters,
    /// 1 if shared memory binds.
    LimitedBySharedMemory,
    /// 1 if the block limit binds.
    LimitedByBlocks,
}

/// Numbers of AMD waves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum AmdField {
    /// Waves per SIMD.
    WavesPerSimd,
    /// VGPRs allocated.
    VgprsAllocated,
    /// Waves per CU.
    WavesPerCu,
    /// Occupancy (0–1).
    Occupancy,
}

/// Numbers of a tiling calculation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TilingField {
    /// Naive element reads.
    NaiveReads,
    /// Tiled element reads.
    TiledReads,
    /// Naive / tiled.
    ReductionFactor,
    /// Shared memory per block, bytes.
    SmemBytesPerBlock,
    /// Resident blocks per SM by the full occupancy rule (block of T² threads).
    BlocksPerSm,
    /// Blocks per SM by shared memory alone, `floor(smem per SM / footprint)`.
    SmemBlocksPerSm,
    /// FLOP/B naive.
    NaiveIntensity,
    /// FLOP/B tiled.
    TiledIntensity,
}

/// Numbers of a roofline placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum RooflineField {
    /// Ridge intensity.
    Ridge,
    /// Attainable FLOP/s.
    Attainable,
    /// 1 if memory-bound, else 0.
    MemoryBound,
    /// Attainable / peak.
    FractionOfPeak,
}

/// Figures of an architecture preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ArchField {
    /// Lanes per warp.
    WarpSize,
    /// Max warps per SM.
    MaxWarps,
    /// Max threads per SM.
    MaxThreads,
    /// Max blocks per SM.
    MaxBlocks,
    /// Registers per SM.
    RegsPerSm,
    /// Max shared memory per SM, bytes.
    SmemPerSm,
    /// Shared-memory banks (32).
    SharedBanks,
}

/// How an answer is given and graded.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum AnswerSpec {
    /// A number computed by `value` (an expression, usually naming a computed value).
    Number {
        /// Expression giving the answer in the unit's base (bytes, seconds, a 0–1 fraction for percent).
        value: String,
        /// The unit the learner answers in.
        #[serde(default)]
        unit: Unit,
        /// Allowed error (default: exact for whole numbers, 1 % relative otherwise).
        #[serde(default)]
        tolerance: Option<Tolerance>,
        /// What `KB` means in this exercise: 1024 (default) or 1000. `KiB` is always 1024.
        #[serde(default)]
        kilo: Option<u32>,
    },
    /// Pick one option; each option's `correct` is an expression (non-zero = correct).
    Choice {
        /// The options, in display order.
        options: Vec<ChoiceOption>,
        /// Several options may be right in one variant (limits that tie); without it the template
        /// linter reports such variants.
        #[serde(default)]
        ties: bool,
        /// Whether the options are shown in an order drawn from the seed, so that the right
        /// option's letter changes from variant to variant (default: yes, unless the prompt names
        /// the options by letter, `(a) … (b) …`). Write `shuffle: false` for options whose order
        /// means something (ascending sizes, "none of the above").
        #[serde(default)]
        shuffle: Option<bool>,
    },
    /// Put items in order of their `key` expressions (ascending unless `descending`).
    Ordering {
        /// The items.
        items: Vec<OrderItem>,
        /// Largest key first.
        #[serde(default)]
        descending: bool,
        /// What the order is by, for the prompt footer (`fastest first`).
        #[serde(default)]
        by: Option<String>,
    },
    /// A short word or phrase, matched tolerantly.
    Text {
        /// Accepted answers.
        accepted: Vec<String>,
        /// Fuzzy-match score needed (default 60).
        #[serde(default)]
        threshold: Option<i64>,
    },
    /// A free explanation graded by the ideas it mentions; the model answer is then shown.
    Explain {
        /// The ideas looked for.
        ideas: Vec<Idea>,
        /// The model answer, with placeholders.
        model: String,
        /// Ideas needed to pass (default: all).
        #[serde(default)]
        required: Option<usize>,
        /// Exact parts asked before the explanation: each a `Number(…)` or `Choice(…)` answer,
        /// graded as such (`checks: [(prompt: "How many sectors …?", answer: Number(…))]`).
        #[serde(default)]
        checks: Vec<SubQuestion>,
    },
}

/// An exact part of an explanation exercise, asked before the explanation.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubQuestion {
    /// The question, with placeholders.
    pub prompt: String,
    /// A `Number(…)` or `Choice(…)` answer.
    pub answer: AnswerSpec,
}

/// One option of a choice.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    /// Text shown, with placeholders.
    pub text: String,
    /// Expression: non-zero when this option is right for the variant (`"1"` for always).
    pub correct: String,
    /// What picking this option when it is wrong says: the misconception it embodies and what to
    /// rethink, with placeholders (never the answer).
    #[serde(default)]
    pub feedback: Option<String>,
    /// In a translation: the English text, with placeholders — a learner may still type its words.
    /// Never read from a file.
    #[serde(skip)]
    pub also: Option<String>,
}

/// One item of an ordering.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderItem {
    /// Text shown, with placeholders.
    pub text: String,
    /// Expression the order sorts by.
    pub key: String,
    /// Other names a learner may type (`regs` for `registers`).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// In a translation: the English text, with placeholders — accepted as another name. Never
    /// read from a file.
    #[serde(skip)]
    pub also: Option<String>,
}

/// One idea an explanation should mention.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Idea {
    /// The idea, as feedback names it.
    pub name: String,
    /// Words or phrases any of which shows the idea (case-insensitive). A phrase with `not`,
    /// `never`, `without` … among the three words before it does not count.
    pub any_of: Vec<String>,
    /// Phrases that contradict the idea (`keep the AoS`): where one appears, the idea is not found.
    #[serde(default)]
    pub not_with: Vec<String>,
}

/// The unit of a numeric answer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
pub enum Unit {
    /// A plain number.
    #[default]
    None,
    /// A count of things (`Count("sectors")`): the word may be typed after the number.
    Count(CountWord),
    /// A fraction shown as a percentage: `62.5%` and `0.625` are both accepted.
    Percent,
    /// Bytes: `2 KB`, `2048 B`, `2 KiB`.
    Bytes,
    /// Seconds: `8.39 us`, `268 µs`, `1.2 ms`.
    Seconds,
    /// Clock cycles.
    Cycles,
    /// FLOP per byte.
    FlopPerByte,
    /// FLOP per second: `67 TFLOP/s`.
    FlopPerSecond,
    /// Bytes per second: `4.8 TB/s`.
    BytesPerSecond,
    /// A ratio: `16x`, `6.6×`.
    Factor,
}

/// The counted word of a `Count` unit (`sectors`), and in a translation the other language's words
/// for it, which are accepted too. Written in a file as a plain string: `Count("sectors")`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CountWord {
    /// The word shown (`sectors`, or `섹터` in Korean).
    pub word: String,
    /// Other words accepted for it (the English word in a translation).
    pub also: Vec<String>,
}

impl CountWord {
    /// Every word accepted: the shown one first.
    pub fn all(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.word.as_str()).chain(self.also.iter().map(String::as_str))
    }
}

impl From<&str> for CountWord {
    fn from(word: &str) -> Self {
        CountWord {
            word: word.to_string(),
            also: Vec::new(),
        }
    }
}

impl From<String> for CountWord {
    fn from(word: String) -> Self {
        CountWord {
            word,
            also: Vec::new(),
        }
    }
}

impl std::fmt::Display for CountWord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.word)
    }
}

impl<'de> Deserialize<'de> for CountWord {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(CountWord::from)
    }
}

impl Serialize for CountWord {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.word)
    }
}

/// Allowed error of a numeric answer.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize)]
pub enum Tolerance {
    /// Must equal the answer.
    Exact,
    /// Within this much.
    Abs(f64),
    /// Within this fraction of the answer (0.05 = 5 %).
    Rel(f64),
}
