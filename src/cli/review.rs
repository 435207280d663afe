//! `warpdrill stats`, `warpdrill review optimize|export-log` and `warpdrill cards export|import`:
//! spaced-repetition review from the command line.

use super::Command;
use crate::content::Content;
use crate::i18n::Lang;
use crate::srs::config::{Overrides, ReviewConfig, config_path, split_steps};
use crate::srs::stats::{self, Stats};
use crate::srs::store::Access;
use crate::srs::{Clock, Deck, FsrsScheduler, SystemClock, anki, optimize, store};
use crate::t;
use clap::{Args, Subcommand};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Review settings given on the command line (each replaces the settings file's value).
#[derive(Debug, Clone, Default, PartialEq, Args)]
pub struct ReviewFlags {
    /// Review settings file (default: $WARPDRILL_CONFIG, else review.ron in the platform config
    /// directory, e.g. ~/.config/warpdrill/review.ron).
    #[arg(long, value_name = "FILE")]
    pub review_config: Option<PathBuf>,
    /// Desired retention, 0.70–0.99 (default 0.90).
    #[arg(long, value_name = "R")]
    pub retention: Option<f32>,
    /// New cards per day (default 20).
    #[arg(long, value_name = "N")]
    pub new_per_day: Option<u32>,
    /// Reviews per day at most (default 200).
    #[arg(long, value_name = "N")]
    pub reviews_per_day: Option<u32>,
    /// Learning steps, each under a day (default "1m 10m"; "" for none).
    #[arg(long, value_name = "STEPS")]
    pub learning_steps: Option<String>,
    /// Relearning steps, each under a day (default "10m").
    #[arg(long, value_name = "STEPS")]
    pub relearning_steps: Option<String>,
    /// Hour of local time at which a new review day begins (default 4).
    #[arg(long, value_name = "HOUR")]
    pub day_start: Option<u8>,
}

impl ReviewFlags {
    fn overrides(&self) -> Overrides {
        Overrides {
            desired_retention: self.retention,
            new_per_day: self.new_per_day,
            reviews_per_day: self.reviews_per_day,
            learning_steps: self.learning_steps.as_deref().map(split_steps),
            relearning_steps: self.relearning_steps.as_deref().map(split_steps),
            day_start_hour: self.day_start,
        }
    }
}

/// `warpdrill stats`
#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Review settings.
    #[command(flatten)]
    pub review: ReviewFlags,
}

/// `warpdrill review [--topic T] [--new N]`, or one of its subcommands.
#[derive(Debug, Clone, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ReviewArgs {
    /// Without a subcommand, the review session opens in the tutor.
    #[command(subcommand)]
    pub command: Option<ReviewCommand>,
    /// Review only the cards of this topic.
    #[arg(long)]
    pub topic: Option<String>,
    /// Introduce up to N new cards in this session (beyond those already introduced today).
    #[arg(long = "new", value_name = "N")]
    pub new: Option<u32>,
    /// Review settings.
    #[command(flatten)]
    pub review: ReviewFlags,
}

/// `warpdrill review …`
#[derive(Debug, Clone, Subcommand)]
pub enum ReviewCommand {
    /// Fit the scheduler's parameters to your review log (needs 400 reviews); they are kept only
    /// if they predict your log better than the ones in use.
    Optimize(ReviewFlags),
    /// Write the review log as CSV for the FSRS optimizer (card_id, review_time, review_rating,
    /// review_state, review_duration); `-` for stdout.
    ExportLog {
        /// The CSV file to write.
        file: PathBuf,
        /// Review settings.
        #[command(flatten)]
        review: ReviewFlags,
    },
}

/// `warpdrill cards …`
#[derive(Debug, Subcommand)]
pub enum CardsCommand {
    /// Write every card as a file Anki imports directly (File → Import).
    Export {
        /// The text file to write (`-` for stdout).
        #[arg(long, value_name = "FILE")]
        anki: PathBuf,
    },
    /// Turn an Anki text export (Notes in Plain Text) into a RON deck for `--content`.
    Import {
        /// The Anki text file.
        #[arg(long, value_name = "FILE")]
        anki: PathBuf,
        /// The topic id the cards belong to.
        #[arg(long)]
        topic: String,
        /// A content folder: the deck is written to DIR/content/cards-<topic>-anki.ron (default:
        /// print it).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Write over a deck the same import wrote before.
        #[arg(long)]
        replace: bool,
    },
}

/// Prints to stdout and gives `code`: a closed pipe (`| head`) keeps it, any other write failure
/// is reported and gives [`WRITE_FAILED`](crate::cli::output::WRITE_FAILED), as every command does.
fn say(text: &str, code: u8) -> ExitCode {
    crate::cli::output::finish(text, "", code)
}

fn fail(message: impl std::fmt::Display, code: u8) -> ExitCode {
    crate::cli::output::stderr(&format!("error: {message}\n"));
    ExitCode::from(code)
}

fn load_content(dir: Option<&Path>, lang: Lang) -> Result<Content, ExitCode> {
    let content = Content::with_dir(dir).map_err(|e| fail(e, 2))?;
    if !content.problems.is_empty() {
        let message = t!(lang, "cli-content-problems", n = content.problems.len());
        // The list that follows elsewhere is not printed here.
        let message = message.trim_end().trim_end_matches(':');
        eprintln!("{}", t!(lang, "cli-warning", message = message.to_string()));
    }
    Ok(content)
}

/// An opened deck: the deck, its data directory, the parameters in use, and messages for the
/// learner.
pub struct Opened {
    /// The deck.
    pub deck: Deck,
    /// The data directory.
    pub dir: PathBuf,
    /// FSRS parameters in use (empty: the defaults).
    pub parameters: Vec<f32>,
    /// Warnings: settings or parameters that could not be used, a log that was cut off or damaged.
    pub notices: Vec<String>,
}

/// The deck with its log, the settings from the file and flags, and the learner's parameters; or
/// why review cannot start. `access` says whether this process may write the log (it holds the data
/// directory's lock). The deck keeps time by `clock` (the tutor gives it its own).
pub fn build_deck(
    data_dir: Option<&Path>,
    content: &Content,
    flags: &ReviewFlags,
    access: Access,
    clock: Arc<dyn Clock>,
) -> Result<Opened, String> {
    let dir = crate::progress::data_dir(data_dir).ok_or(
        "no data directory could be found for the review log: pass --data-dir DIR or set WARPDRILL_DATA",
    )?;
    let mut notices = Vec::new();
    let loaded = ReviewConfig::load(config_path(flags.review_config.as_deref()).as_deref());
    notices.extend(loaded.notice.clone());
    let settings = loaded
        .config
        .with(&flags.overrides())
        .settings()
        .map_err(|e| e.to_string())?;
    let mut parameters = match store::load_parameters(&dir) {
        Ok(p) => p.unwrap_or_default(),
        Err(message) => {
            notices.push(message);
            Vec::new()
        }
    };
    let scheduler = match FsrsScheduler::new(&parameters) {
        Ok(scheduler) => scheduler,
        // Parameters read from the file that the scheduler refuses (too few, out of range): the
        // file is named and the defaults are used, as for a file that cannot be read.
        Err(e) if !parameters.is_empty() => {
            notices.push(format!(
                "{} holds parameters the scheduler refuses ({e}); the default parameters are used — run `warpdrill review optimize` to fit new ones",
                dir.join(store::PARAMETERS_FILE).display()
            ));
            parameters = Vec::new();
            FsrsScheduler::new(&parameters).map_err(|e| e.to_string())?
        }
        Err(e) => return Err(e.to_string()),
    };
    let mut deck = Deck::open_with(
        &content.cards,
        &dir,
        access,
        settings,
        Box::new(scheduler),
        clock,
    );
    // The review screens show the deck's notices: every one that concerns review is kept there.
    for notice in notices {
        deck.add_notice(notice);
    }
    let notices = deck.notices().to_vec();
    Ok(Opened {
        deck,
        dir,
        parameters,
        notices,
    })
}

/// [`build_deck`] for the command line, which only reads the log: warnings go to stderr.
fn open_deck(
    data_dir: Option<&Path>,
    content: &Content,
    flags: &ReviewFlags,
) -> Result<(Deck, PathBuf, Vec<f32>), ExitCode> {
    let opened = build_deck(
        data_dir,
        content,
        flags,
        Access::ReadOnly(String::new()),
        Arc::new(SystemClock),
    )
    .map_err(|e| fail(e, 2))?;
    for notice in &opened.notices {
        eprintln!("warning: {notice}");
    }
    Ok((opened.deck, opened.dir, opened.parameters))
}

/// Runs `stats`, `review …` or `cards …`.
pub fn run(command: Command, data_dir: Option<&Path>, content_dir: Option<&Path>) -> ExitCode {
    run_in(command, data_dir, content_dir, Lang::En)
}

/// [`run`]; `stats` prints its text in `lang` (its JSON is the same in every language).
pub fn run_in(
    command: Command,
    data_dir: Option<&Path>,
    content_dir: Option<&Path>,
    lang: Lang,
) -> ExitCode {
    let content = match load_content(content_dir, lang) {
        Ok(content) => content,
        Err(code) => return code,
    };
    match command {
        Command::Stats(args) => match open_deck(data_dir, &content, &args.review) {
            Ok((deck, dir, _)) => {
                let stats = stats::compute(&deck);
                let text = if args.json {
                    match serde_json::to_string(&stats) {
                        Ok(text) => text + "\n",
                        Err(e) => return fail(e, 1),
                    }
                } else {
                    stats_text_in(&stats, &deck, &content, &dir, lang)
                };
                say(&text, 0)
            }
            Err(code) => code,
        },
        Command::Review(ReviewArgs {
            command: Some(ReviewCommand::Optimize(flags)),
            ..
        }) => match open_deck(data_dir, &content, &flags) {
            Ok((deck, dir, current)) => optimize_command(&deck, &dir, &current),
            Err(code) => code,
        },
        Command::Review(ReviewArgs {
            command: Some(ReviewCommand::ExportLog { file, review }),
            ..
        }) => match open_deck(data_dir, &content, &review) {
            Ok((deck, _, _)) => {
                let csv = anki::export_log(&deck);
                let rows = csv.lines().count().saturating_sub(1);
                match write_out(&file, &csv) {
                    Ok(()) => {
                        if file.as_os_str() != "-" {
                            return say(
                                &(format!("Wrote {rows} reviews to {}.", file.display()) + "\n"),
                                0,
                            );
                        }
                        ExitCode::SUCCESS
                    }
                    Err(code) => code,
                }
            }
            Err(code) => code,
        },
        Command::Cards(CardsCommand::Export { anki: file }) => {
            match write_out(&file, &anki::export(&content.cards)) {
                Ok(()) => {
                    if file.as_os_str() != "-" {
                        return say(
                            &(format!(
                                "Wrote {} cards to {}. In Anki: File → Import, pick the file; the \
                             columns are already named (id as GUID, front, back, tags).",
                                content.cards.len(),
                                file.display()
                            ) + "\n"),
                            0,
                        );
                    }
                    ExitCode::SUCCESS
                }
                Err(code) => code,
            }
        }
        Command::Cards(CardsCommand::Import {
            anki: file,
            topic,
            out,
            replace,
        }) => import_command(&content, &file, &topic, out.as_deref(), replace),
        _ => fail("not a review command", 2),
    }
}

/// Writes `text` to `file`, or to stdout for `-`; a failure is the exit status to end with.
fn write_out(file: &Path, text: &str) -> Result<(), ExitCode> {
    if file.as_os_str() == "-" {
        return crate::cli::output::stdout(text).map_err(|e| e.exit(0));
    }
    std::fs::write(file, text).map_err(|e| fail(format!("cannot write {}: {e}", file.display()), 1))
}

fn optimize_command(deck: &Deck, dir: &Path, current: &[f32]) -> ExitCode {
    let fit = match optimize::fit(deck, current, deck.settings().relearning_steps.len()) {
        Ok(fit) => fit,
        Err(e @ crate::srs::SrsError::NotEnoughReviews { .. }) => {
            return say(&(format!("{e}.") + "\n"), 1);
        }
        Err(e) => return fail(e, 1),
    };
    if let Err(e) = crate::cli::output::stdout(
        &(format!(
            "Fitted FSRS to {} reviews: log loss {:.4} with the parameters in use, {:.4} fitted; \
         RMSE {:.2}% → {:.2}%.",
            fit.reviews,
            fit.current_log_loss,
            fit.fitted_log_loss,
            fit.current_rmse * 100.0,
            fit.fitted_rmse * 100.0
        ) + "\n"),
    ) {
        return e.exit(0);
    }
    if fit.better() {
        // Saving needs the data directory to itself, as every write there does.
        let _lock = match crate::store::lock(dir) {
            Ok(crate::store::Lock::Busy) => {
                return fail(
                    format!(
                        "another warpdrill is open on {}: close it and run `warpdrill review \
                         optimize` again to save the fitted parameters",
                        dir.display()
                    ),
                    1,
                );
            }
            Ok(lock) => lock,
            Err(e) => return fail(format!("cannot use {}: {e}", dir.display()), 1),
        };
        match store::save_parameters(dir, &fit.fitted) {
            Ok(path) => say(
                &(format!(
                    "The fitted parameters predict your log {:.1}% better; they are saved in {} \
                     and used from now on.",
                    fit.improvement() * 100.0,
                    path.display()
                ) + "\n"),
                0,
            ),
            Err(e) => fail(e, 1),
        }
    } else {
        say(&(kept_line(&fit) + "\n"), 0)
    }
}

/// What `review optimize` says when it keeps the parameters in use: the fit is worse, or no better.
fn kept_line(fit: &optimize::Fit) -> String {
    match fit.verdict() {
        optimize::Verdict::Worse(by) => format!(
            "The fitted parameters would predict your log {:.1}% worse; the ones in use are kept.",
            by * 100.0
        ),
        optimize::Verdict::Same | optimize::Verdict::Better(_) => {
            "The fitted parameters predict your log as well as the ones in use (within 0.1%); \
             the ones in use are kept."
                .to_string()
        }
    }
}

fn import_command(
    content: &Content,
    file: &Path,
    topic: &str,
    out: Option<&Path>,
    replace: bool,
) -> ExitCode {
    // The topic names the deck's file: an id, never a path.
    if !crate::content::validate::valid_id(topic) {
        return fail(
            format!("`{topic}` is not a topic id: ids use lowercase letters, digits, `-` and `_`"),
            2,
        );
    }
    let text = match crate::store::read_regular_text(file, crate::store::MAX_LOG_FILE) {
        Ok(text) => text,
        Err(e) => return fail(format!("cannot read {}: {e}", file.display()), 2),
    };
    let imported = match anki::import_notes(&text, topic, &file.display().to_string()) {
        Ok(imported) => imported,
        Err(e) => return fail(e, 2),
    };
    if imported.images > 0 {
        crate::cli::output::stderr(&format!(
            "note: {} left out: a card is text, so only an image's alt text is kept\n",
            if imported.images == 1 {
                "1 image was".to_string()
            } else {
                format!("{} images were", imported.images)
            }
        ));
    }
    if imported.cloze_notes > 0 {
        crate::cli::output::stderr(&format!(
            "note: {} made into one card per cloze (the gap on the front, the answer on the back)\n",
            if imported.cloze_notes == 1 {
                "1 cloze note was".to_string()
            } else {
                format!("{} cloze notes were", imported.cloze_notes)
            }
        ));
    }
    let cards = imported.cards;
    // The topic must be one the deck's own content folder knows (with the built-in topics), as
    // that is where the cards will be loaded from.
    let destination = out
        .filter(|dir| dir.is_dir())
        .and_then(|dir| Content::with_dir(Some(dir)).ok());
    let known = destination.as_ref().unwrap_or(content);
    if known.topic(topic).is_none() {
        crate::cli::output::stderr(&format!(
            "warning: `{topic}` is not a topic yet: add it to content/topics.ron in {}, or the \
             cards will be skipped\n",
            out.map_or("the content folder".to_string(), |d| d
                .display()
                .to_string())
        ));
    }
    let count = cards.len();
    let ron = anki::to_ron(cards);
    if ron.len() as u64 > crate::content::MAX_FILE_BYTES {
        return fail(
            format!(
                "the deck would be {:.1} MB; content files are limited to {} MB — split the export",
                ron.len() as f64 / (1024.0 * 1024.0),
                crate::content::MAX_FILE_BYTES / (1024 * 1024)
            ),
            2,
        );
    }
    let Some(dir) = out else {
        return say(&ron, 0);
    };
    // The content folder must exist: an import never makes folders anywhere but its `content/`.
    if !dir.is_dir() {
        return fail(
            format!(
                "{} is not a folder: give --out an existing content folder",
                dir.display()
            ),
            2,
        );
    }
    let folder = dir.join("content");
    let path = folder.join(format!("cards-{topic}-anki.ron"));
    if path.exists() && !replace {
        return fail(
            format!(
                "{} already exists: pass --replace to write over it, or choose another --out",
                path.display()
            ),
            1,
        );
    }
    let written = std::fs::create_dir_all(&folder)
        .and_then(|()| crate::store::write_atomic(&path, ron.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", path.display()));
    match written {
        Ok(()) => say(
            &(format!(
                "Wrote {count} cards to {}. Check them with `warpdrill content check {}` \
                 and use them with `warpdrill --content {}`.",
                path.display(),
                dir.display(),
                dir.display()
            ) + "\n"),
            0,
        ),
        Err(e) => fail(e, 1),
    }
}

fn percent(value: Option<f64>) -> String {
    value.map_or("—".to_string(), crate::format::percent)
}

/// A row of block characters for counts, scaled to the largest.
fn bars(counts: &[u32]) -> String {
    const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let max = counts.iter().copied().max().unwrap_or(0);
    counts
        .iter()
        .map(|&c| {
            if c == 0 {
                '·'
            } else {
                let level = (u64::from(c) * 7).div_ceil(u64::from(max.max(1))) as usize;
                LEVELS[level.min(7)]
            }
        })
        .collect()
}

/// `warpdrill stats` as text in `lang`, its columns aligned by terminal width.
pub fn stats_text_in(
    stats: &Stats,
    deck: &Deck,
    content: &Content,
    dir: &Path,
    lang: Lang,
) -> String {
    use super::output::{pad_left, pad_right, width};
    let mut out = String::new();
    let s = deck.settings();
    let _ = writeln!(
        out,
        "{}",
        t!(
            lang,
            "cli-stats-title",
            today = stats.today.to_string(),
            hour = s.day.start_hour.to_string(),
            log = dir.join(store::LOG_FILE).display().to_string()
        )
    );
    // A row: its label in a column 11 terminal columns wide, then the figures.
    let row = |out: &mut String, label: String, figures: String| {
        let _ = writeln!(out, "  {} {figures}", pad_right(&label, 10));
    };
    let counts = deck.counts();
    row(
        &mut out,
        t!(lang, "cli-stats-today"),
        t!(
            lang,
            "cli-stats-today-line",
            rated = stats.reviews_today.to_string(),
            due = stats.due_today.to_string(),
            new = counts.new.to_string(),
            learning = counts.learning.to_string(),
            review = counts.review.to_string()
        ),
    );
    let c = &stats.cards;
    row(
        &mut out,
        t!(lang, "cli-stats-cards"),
        t!(
            lang,
            "cli-stats-cards-line",
            new = c.new.to_string(),
            learning = c.learning.to_string(),
            review = c.review.to_string(),
            relearning = c.relearning.to_string(),
            suspended = c.suspended.to_string()
        ),
    );
    let t = &stats.true_retention;
    row(
        &mut out,
        t!(lang, "cli-stats-retention"),
        t!(
            lang,
            "cli-stats-retention-line",
            last30 = percent(stats.retention_30d),
            young = percent(t.young.retention),
            young_n = (t.young.passed + t.young.failed).to_string(),
            mature = percent(t.mature.retention),
            mature_n = (t.mature.passed + t.mature.failed).to_string(),
            desired = crate::format::percent(f64::from(stats.desired_retention))
        ),
    );
    row(
        &mut out,
        t!(lang, "cli-stats-forecast"),
        t!(
            lang,
            "cli-stats-forecast-line",
            bars = bars(&stats.forecast),
            due = stats.forecast.iter().sum::<u32>().to_string()
        ),
    );
    row(
        &mut out,
        t!(lang, "cli-stats-streak"),
        t!(
            lang,
            "cli-stats-streak-line",
            days = stats.streak_days,
            total = stats.total_reviews
        ),
    );
    for (kind, group) in [
        (
            t!(lang, "cli-stats-calibration-fixed"),
            &stats.calibration.fixed,
        ),
        (
            t!(lang, "cli-stats-calibration-drill"),
            &stats.calibration.drill,
        ),
    ] {
        let figures = match (group.predicted, group.actual, group.log_loss, group.rmse) {
            (Some(predicted), Some(actual), Some(log_loss), Some(rmse)) => t!(
                lang,
                "cli-stats-calibration-line",
                kind = kind,
                n = group.reviews,
                predicted = crate::format::percent(predicted),
                actual = crate::format::percent(actual),
                log_loss = format!("{log_loss:.3}"),
                rmse = format!("{:.1}%", rmse * 100.0)
            ),
            _ => t!(lang, "cli-stats-calibration-none", kind = kind),
        };
        row(&mut out, t!(lang, "cli-stats-calibration"), figures);
        for bin in &group.bins {
            let _ = writeln!(
                out,
                "  {}{}",
                pad_right("", 13),
                t!(
                    lang,
                    "cli-stats-calibration-bin",
                    from = format!("{:.0}", bin.from * 100.0),
                    to = format!("{:.0}", bin.to * 100.0),
                    predicted = crate::format::percent(bin.predicted),
                    actual = crate::format::percent(bin.actual),
                    n = bin.reviews
                )
            );
        }
    }
    let _ = writeln!(out, "  {}", t!(lang, "cli-stats-mastery"));
    for topic in &stats.topics {
        let name = content
            .topic(&topic.topic)
            .map_or(topic.topic.as_str(), |t| t.name.as_str());
        let aim = topic.desired_retention.map_or(String::new(), |r| {
            format!(
                " · {}",
                t!(
                    lang,
                    "cli-stats-topic-aim",
                    percent = crate::format::percent(f64::from(r))
                )
            )
        });
        let _ = writeln!(
            out,
            "    {} {}  {}{aim}",
            pad_right(name, 34),
            pad_left(&percent(topic.mastery), 6),
            t!(
                lang,
                "cli-stats-studied",
                studied = topic.studied.to_string(),
                cards = topic.cards.to_string()
            )
        );
    }
    let weeks = stats.heatmap.counts.len().div_ceil(7);
    let _ = writeln!(
        out,
        "  {}",
        t!(
            lang,
            "cli-stats-weeks",
            weeks = weeks.to_string(),
            first = stats.heatmap.first_day.to_string()
        )
    );
    let days = [
        t!(lang, "cli-day-mon"),
        t!(lang, "cli-day-tue"),
        t!(lang, "cli-day-wed"),
        t!(lang, "cli-day-thu"),
        t!(lang, "cli-day-fri"),
        t!(lang, "cli-day-sat"),
        t!(lang, "cli-day-sun"),
    ];
    let day_width = days.iter().map(|d| width(d)).max().unwrap_or(0);
    let first = usize::from(stats.heatmap.first_weekday);
    for (row, day) in days.iter().enumerate() {
        let cells: Vec<u32> = (0..=weeks)
            .filter_map(|week| {
                let index = (week * 7 + row).checked_sub(first)?;
                stats.heatmap.counts.get(index).copied()
            })
            .collect();
        let _ = writeln!(out, "    {} {}", pad_right(day, day_width), bars(&cells));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(current: f32, fitted: f32) -> optimize::Fit {
        optimize::Fit {
            reviews: 500,
            current: vec![],
            fitted: vec![],
            current_log_loss: current,
            fitted_log_loss: fitted,
            current_rmse: 0.05,
            fitted_rmse: 0.05,
        }
    }

    #[test]
    fn an_equal_fit_is_called_equal_never_minus_zero_percent_worse() {
        for (current, fitted) in [(0.3, 0.3), (0.3, 0.300_01), (0.3, 0.299_99)] {
            let fit = fit(current, fitted);
            let line = kept_line(&fit);
            assert!(!fit.better(), "{current} {fitted}");
            assert!(!line.contains("0.0%"), "{line}");
            assert!(line.contains("as well as"), "{line}");
        }
        let worse = kept_line(&fit(0.3, 0.33));
        assert!(worse.contains("10.0% worse"), "{worse}");
        assert!(fit(0.3, 0.27).better());
    }
}
