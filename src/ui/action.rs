//! What a learner can ask for, as plain data: screens return an [`Action`] from their key handling
//! and the app's `update` carries it out. Nothing here refers to the app or to a screen's state.

use crate::analyze::{Launch, Options, examples};
use crate::content::schema::Level;
use crate::engine::{AccessShape, Arch, Op, WarpAccess};
use crate::ladder::{Record, ShowMe};
use crate::srs::Rating;
use crate::srs::log::DrillAnswer;

/// Global or shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Space {
    /// Global memory: sectors and lines.
    #[default]
    Global,
    /// Shared memory: banks and wavefronts.
    Shared,
}

/// The calculator tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    /// Occupancy with what-if plots.
    #[default]
    Occupancy,
    /// Tiled matrix multiply.
    Tiling,
    /// Roofline chart.
    Roofline,
}

/// The pattern the explorer opens on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplorerSetup {
    /// Architecture.
    pub arch: &'static Arch,
    /// Memory space.
    pub space: Space,
    /// The access as the learner describes it.
    pub shape: AccessShape,
    /// Count 128-byte lines instead of the architecture's unit.
    pub lines: bool,
    /// A load or a store (the shape says where the lanes go, this what they do).
    pub op: Op,
}

impl Default for ExplorerSetup {
    /// A full warp of consecutive 4-byte loads from global memory on the default architecture.
    fn default() -> Self {
        ExplorerSetup {
            arch: Arch::default_arch(),
            space: Space::Global,
            shape: AccessShape::default(),
            lines: false,
            op: Op::Load,
        }
    }
}

impl ExplorerSetup {
    /// The explorer on `access` in `space`.
    pub fn new(arch: &'static Arch, space: Space, access: &WarpAccess) -> Self {
        ExplorerSetup {
            arch,
            space,
            shape: AccessShape::of(access),
            lines: false,
            op: access.op,
        }
    }
}

/// What to analyse, as plain data (an [`Action`] carries it).
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyzeSetup {
    /// The file's name, shown and used in messages.
    pub file: String,
    /// The CUDA source.
    pub source: String,
    /// The kernel, when the file has several.
    pub kernel: Option<String>,
    /// The launch; `None` takes the `// launch:` line.
    pub launch: Option<Launch>,
    /// `NAME=VALUE` defines.
    pub defines: Vec<(String, String)>,
    /// The headers the file includes from beside it (`#include "…"`): name as written, text.
    pub headers: Vec<(String, String)>,
    /// What arrays the kernel reads hold (`--assume`).
    pub assume: Vec<crate::analyze::assume::Assumption>,
    /// The architecture the diagrams are drawn for.
    pub arch: &'static Arch,
    /// The GPU whose time is predicted (a key of `engine::timing::GPUS`).
    pub gpu: &'static str,
}

impl AnalyzeSetup {
    /// A built-in example with the launch of its `// launch:` line.
    pub fn example(name: &str) -> Option<AnalyzeSetup> {
        examples::example(name).map(|source| AnalyzeSetup {
            file: format!("{name}.cu"),
            source: source.to_string(),
            kernel: None,
            launch: None,
            defines: Vec::new(),
            headers: Vec::new(),
            assume: Vec::new(),
            arch: Arch::parse("sm_90").unwrap_or_else(|_| Arch::default_arch()),
            gpu: crate::engine::timing::H200.key,
        })
    }

    /// The GPU whose time is predicted (the H200 for a key it does not know).
    pub fn gpu(&self) -> &'static crate::engine::timing::Gpu {
        crate::engine::timing::Gpu::parse(self.gpu).unwrap_or(&crate::engine::timing::H200)
    }

    /// The analyser's options for this setup.
    pub fn options(&self) -> Options {
        Options {
            kernel: self.kernel.clone(),
            launch: self.launch,
            defines: self.defines.clone(),
            full_simulation: false,
            headers: self.headers.clone(),
            assume: self.assume.clone(),
        }
    }
}

/// Everything the learner can ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Leave the program.
    Quit,
    /// Back to the previous screen (quit from Home).
    Back,
    /// Straight to Home.
    Home,
    /// Open the ladder, on a level (`None`: the level the learner is working on).
    OpenLadder(Option<Level>),
    /// Open an exercise (the variant last shown, or a new one).
    OpenExercise(String),
    /// Open the list of lessons.
    OpenLessons,
    /// Open a lesson (where the learner left it).
    OpenLesson(String),
    /// A lesson shows another page.
    LessonPage {
        /// Lesson id.
        id: String,
        /// The page now shown (0-based).
        page: usize,
        /// It is the lesson's last page.
        last: bool,
    },
    /// A faded example of a lesson was solved.
    LessonSolved {
        /// Lesson id.
        id: String,
        /// The exercise's id.
        exercise: String,
    },
    /// Practise what you missed: the exercises answered wrong, one after another on new numbers,
    /// topics interleaved (or say that there is nothing to practise).
    OpenPractice,
    /// Open a topic.
    OpenTopic(String),
    /// Open a card.
    OpenCard(String),
    /// Open the explorer on a pattern.
    OpenExplorer(ExplorerSetup),
    /// Open the list of built-in kernels to analyse.
    OpenAnalyzeExamples,
    /// Analyse a kernel and show it line by line.
    AnalyzeKernel(Box<AnalyzeSetup>),
    /// Open the calculators on a tab with their default inputs.
    OpenCalculators(Tab),
    /// Open the explorer where the learner last left it (the default pattern the first time).
    ReopenExplorer,
    /// Open the calculators where the learner last left them (occupancy the first time).
    ReopenCalculators,
    /// Open the explorer or a calculator on an exercise's own numbers.
    ShowMe(ShowMe),
    /// Open the search palette.
    OpenSearch,
    /// Show or hide help.
    ToggleHelp,
    /// Close the overlay.
    CloseOverlay,
    /// Speak this language from now on (and remember it).
    SetLang(crate::i18n::Lang),
    /// Open every level of the ladder.
    UnlockAll,
    /// An answer to the exercise shown was graded (wrong, right, or an explanation marked).
    Attempt {
        /// Exercise id.
        id: String,
        /// The graded answer, with how it counts ([`Record::standing`]).
        record: Record,
        /// When the time now booked began (Unix seconds).
        since: u64,
    },
    /// The learner revealed a hint of an exercise.
    HintShown(String),
    /// New numbers for the exercise shown.
    Reroll(String),
    /// The next (`1`) or previous (`-1`) exercise of the open levels after `id`.
    Step {
        /// The exercise shown.
        id: String,
        /// How far to move.
        by: isize,
    },
    /// Start a review session on the cards due.
    OpenReview,
    /// Open the review statistics.
    OpenStats,
    /// Rate a card of the review session (appended to the review log).
    Rate {
        /// The card's index in the deck.
        card: usize,
        /// The rating.
        rating: Rating,
        /// Time spent on the card, milliseconds.
        duration_ms: u64,
        /// For a drill card: the variant's seed and the graded answer.
        drill: Option<DrillAnswer>,
    },
    /// Take back the last rating, suspension or burial of the review session.
    UndoReview,
    /// Keep a card out of review until unsuspended.
    SuspendCard(usize),
    /// Keep a card out of review until tomorrow.
    BuryCard(usize),
    /// Lab mode: open step `n` (0-based) of the lab.
    LabOpen(usize),
    /// Lab mode: an answer to a step was graded.
    LabAttempt {
        /// Step index (0-based).
        step: usize,
        /// The graded answer.
        record: Record,
        /// When the time now booked began (Unix seconds).
        since: u64,
    },
    /// Lab mode: a kernel file handed in for a puzzle step (checked already: the app grades it
    /// from the remembered check).
    LabKernel {
        /// Step index (0-based).
        step: usize,
        /// The file's text.
        source: String,
        /// When the time now booked began (Unix seconds).
        since: u64,
    },
    /// Lab mode: a hint was taken on a step (0-based).
    LabHint(usize),
    /// Lab mode: hand the lab in.
    LabSubmit,
    /// Open the kernel puzzles.
    OpenPuzzles,
    /// Open one kernel puzzle.
    OpenPuzzle(String),
    /// Write a puzzle's starter file where its screen watches (kept if it is there already).
    PuzzleStart(String),
}
