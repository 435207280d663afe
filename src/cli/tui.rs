//! Starting the tutor in a real terminal: checks, progress, terminal set-up and restoration.

use super::output;
use super::signals::{Interruption, Signals};
use crate::app::settings;
use crate::app::{self, App};
use crate::clock::{Clock, SystemClock};
use crate::content::schema::Level;
use crate::i18n::Lang;
use crate::progress::{self, Store};
use crate::t;
use crate::ui::{Action, ExplorerSetup, Space, Tab, Theme};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;

/// Which screen the tutor opens on.
#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    /// Home.
    Home,
    /// The ladder, on a level.
    Ladder(Option<Level>),
    /// The lessons, or one topic's lesson.
    Learn(Option<String>),
    /// The explorer on a pattern.
    Explorer(ExplorerSetup),
    /// The calculators.
    Calculators(Tab),
    /// A kernel, analysed.
    Analyze(Box<crate::ui::analyze::AnalyzeSetup>),
    /// The kernel puzzles.
    Puzzles,
    /// A review session.
    Review {
        /// Only this topic's cards.
        topic: Option<String>,
        /// New cards to introduce in this session.
        new: Option<u32>,
        /// Review settings.
        flags: crate::cli::review::ReviewFlags,
    },
}

/// Restores the terminal however the tutor ends (return, error, signal or panic unwinding).
pub(crate) struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Cooked mode, the normal screen, a visible cursor and bracketed paste off. Input still pending
/// in raw mode (a reply of the terminal, keys typed while quitting) is read and dropped first, so
/// that none of it reaches the shell.
pub(crate) fn restore_terminal() {
    drain_input();
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::DisableBracketedPaste
    );
    ratatui::restore();
    let _ = ratatui::crossterm::execute!(std::io::stdout(), ratatui::crossterm::cursor::Show);
}

/// Reads and drops the input already waiting (at most a few thousand events, never waiting).
fn drain_input() {
    use ratatui::crossterm::event;
    for _ in 0..4096 {
        match event::poll(std::time::Duration::ZERO) {
            Ok(true) => {
                if event::read().is_err() {
                    break;
                }
            }
            _ => break,
        }
    }
}

/// Raw mode, the alternate screen, and a terminal that draws at most
/// [`crate::ui::MAX_WIDTH`] × [`crate::ui::MAX_HEIGHT`] cells however large the window: its
/// buffers are allocated for the area drawn, never for the whole window (the terminal is restored
/// on a panic, as `ratatui::init` does).
pub(crate) fn start_terminal() -> std::io::Result<ratatui::DefaultTerminal> {
    use ratatui::crossterm::{execute, terminal as term};
    let (width, height) = term::size()?;
    let options = ratatui::TerminalOptions {
        viewport: ratatui::Viewport::Fixed(crate::ui::drawn_area(width, height)),
    };
    // Restores the terminal before the panic message, and enables raw mode.
    let terminal = ratatui::try_init_with_options(options)?;
    // Bracketed paste: a paste arrives as one `Event::Paste`, never as keys (so a newline in it
    // does not submit an answer).
    execute!(
        std::io::stdout(),
        term::EnterAlternateScreen,
        ratatui::crossterm::event::EnableBracketedPaste
    )?;
    Ok(terminal)
}

/// Suspends the tutor (Ctrl-Z, SIGTSTP) as terminal programs do: the terminal restored, the process
/// stopped; once continued, raw mode and the alternate screen back and the whole screen redrawn.
fn suspend(terminal: &mut ratatui::DefaultTerminal, signals: &Signals) -> std::io::Result<()> {
    use ratatui::crossterm::{cursor, execute, terminal as term};
    restore_terminal();
    signals.stop()?;
    term::enable_raw_mode()?;
    execute!(
        std::io::stdout(),
        term::EnterAlternateScreen,
        cursor::Hide,
        ratatui::crossterm::event::EnableBracketedPaste
    )?;
    redraw_all(terminal)
}

/// Clears the screen and has the next frame draw every cell, without asking the terminal where its
/// cursor is (`Terminal::clear` does): a cursor-position reply that comes late — the process
/// stopped again, or ended — would be typed into the shell.
fn redraw_all(terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
    use ratatui::backend::Backend;
    terminal
        .backend_mut()
        .clear_region(ratatui::backend::ClearType::All)?;
    let area = terminal.get_frame().area();
    terminal.resize(area)
}

/// Continued after a stop the tutor did not make itself (SIGSTOP, then SIGCONT): the shell may
/// have put the terminal back in cooked mode on the normal screen meanwhile, so raw mode, the
/// alternate screen, a hidden cursor and bracketed paste are set again before the redraw.
fn resume(terminal: &mut ratatui::DefaultTerminal) -> std::io::Result<()> {
    use ratatui::crossterm::{cursor, execute, terminal as term};
    // The terminal library takes raw mode as still on (it set it and never unset it) and would
    // not set it again: unset it first.
    term::disable_raw_mode()?;
    term::enable_raw_mode()?;
    execute!(
        std::io::stdout(),
        term::EnterAlternateScreen,
        cursor::Hide,
        ratatui::crossterm::event::EnableBracketedPaste
    )?;
    redraw_all(terminal)
}

impl crate::cli::ExploreArgs {
    /// The pattern these flags describe, or why they are refused.
    pub fn to_setup(&self) -> Result<ExplorerSetup, String> {
        let (arch, access) = self.pattern.to_access()?;
        access.resolve().map_err(|e| e.to_string())?;
        Ok(ExplorerSetup {
            arch,
            space: match self.space {
                crate::cli::SpaceArg::Global => Space::Global,
                crate::cli::SpaceArg::Shared => Space::Shared,
            },
            shape: self.pattern.shape()?,
            lines: self.pattern.granularity == Some(crate::cli::GranularityArg::Line),
            op: self.pattern.op(),
        })
    }
}

/// Runs the tutor with colours as NO_COLOR says; returns the exit status.
pub fn run(data_dir: Option<&Path>, content_dir: Option<&Path>, start: Start) -> u8 {
    run_with(data_dir, content_dir, start, Theme::from_env(), None)
}

/// The language a session starts in and where the learner's choice is remembered: `flag`
/// (`--lang`), else `WARPDRILL_LANG`, else the language saved from Home in `path` (the settings
/// file), else the locale, else English. `env` looks a variable up. A settings file that cannot be
/// used is kept aside and reported (the notice, in the language chosen); an unknown
/// `WARPDRILL_LANG` is an error.
pub fn starting_lang(
    flag: Option<Lang>,
    path: Option<&Path>,
    now: u64,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Lang, Option<String>), crate::i18n::UnknownLang> {
    let loaded = match path {
        Some(path) => settings::load(path, now),
        None => settings::Loaded::Missing,
    };
    let lang = settings::choose(flag, loaded.lang(), env)?;
    let notice = match (&loaded, path) {
        (settings::Loaded::Damaged { problem, aside }, Some(path)) => Some(match aside {
            Some(aside) => t!(
                lang,
                "app-settings-damaged",
                path = path.display().to_string(),
                problem = problem.clone(),
                aside = aside.display().to_string()
            ),
            None => t!(
                lang,
                "app-settings-unreadable",
                path = path.display().to_string(),
                problem = problem.clone()
            ),
        }),
        _ => None,
    };
    Ok((lang, notice))
}

/// Runs the tutor in `theme`, speaking `lang` if given (`--lang`; else as [`starting_lang`]
/// chooses); returns the exit status.
pub fn run_with(
    data_dir: Option<&Path>,
    content_dir: Option<&Path>,
    start: Start,
    theme: Theme,
    lang: Option<Lang>,
) -> u8 {
    if !interactive() {
        return 2;
    }
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let settings_path = settings::path();
    let (lang, settings_notice) =
        match starting_lang(lang, settings_path.as_deref(), clock.now_secs(), |var| {
            std::env::var(var).ok()
        }) {
            Ok(chosen) => chosen,
            Err(e) => {
                output::stderr(&format!("warpdrill: {e}\n"));
                return 2;
            }
        };
    let content = match crate::ladder::check::with_dir(content_dir) {
        Ok(content) => content.in_lang(lang),
        Err(e) => {
            output::stderr(&format!(
                "warpdrill: {}\n",
                crate::format::printable(&e.to_string())
            ));
            return 2;
        }
    };
    let now = clock.now_secs();
    let mut puzzles = crate::puzzle::record::Record::default();
    let mut puzzle_notice = None;
    let mut data = None;
    let (store, progress, notice) = match progress::data_dir(data_dir) {
        Some(dir) => {
            let opened = Store::open(&dir, now);
            let loaded = crate::puzzle::record::load(&dir, now);
            puzzles = loaded.record;
            puzzle_notice = loaded.notice;
            data = Some(dir.clone());
            (Some(opened.store), opened.progress, opened.notice)
        }
        None => (
            None,
            progress::Progress::default(),
            Some(t!(lang, "app-no-data-dir")),
        ),
    };
    let mut app = App::new(
        content,
        progress,
        store,
        theme,
        Arc::clone(&clock),
        Box::new(|| u64::from(rand::random::<u32>())),
    );
    app.set_lang(lang);
    app.background = true;
    app.settings = settings_path;
    app.notices.extend(settings_notice);
    app.notices.extend(notice);
    app.notices.extend(puzzle_notice);
    app.data_dir = data;
    app.puzzles = puzzles;
    let flags = match &start {
        Start::Review { flags, .. } => flags.clone(),
        _ => crate::cli::review::ReviewFlags::default(),
    };
    if let Start::Review {
        topic: Some(topic), ..
    } = &start
        && app.content.topic(topic).is_none()
    {
        eprintln!(
            "warpdrill: no topic `{topic}` (see `warpdrill content check --json` for the topics)"
        );
        return 2;
    }
    // The review log is written under the same lock as progress.
    let access = review_access(app.store.as_ref(), lang);
    match crate::cli::review::build_deck(data_dir, &app.content, &flags, access, app.clock()) {
        Ok(opened) => {
            app.notices.extend(opened.notices);
            app.review = Some(opened.deck);
        }
        Err(message) => app
            .notices
            .push(t!(lang, "app-review-unavailable", message = message)),
    }
    match start {
        Start::Home => {}
        Start::Ladder(level) => app.update(Action::OpenLadder(level)),
        Start::Learn(topic) => {
            app.update(Action::OpenLessons);
            let lesson = topic.as_deref().map(|t| {
                app.content
                    .lesson_of(t)
                    .or_else(|| app.content.lesson(t))
                    .map(|l| l.id.clone())
                    .ok_or(t)
            });
            match lesson {
                Some(Ok(id)) => app.update(Action::OpenLesson(id)),
                Some(Err(unknown)) => {
                    let known: Vec<&str> = app
                        .content
                        .lessons
                        .iter()
                        .map(|l| l.topic.as_str())
                        .collect();
                    app.flash = Some(t!(
                        lang,
                        "lesson-unknown-topic",
                        topic = unknown.to_string(),
                        known = known.join(", ")
                    ));
                }
                None => {}
            }
        }
        Start::Explorer(state) => app.start_on(Action::OpenExplorer(state)),
        Start::Calculators(tab) => app.start_on(Action::OpenCalculators(tab)),
        Start::Analyze(setup) => app.start_on(Action::AnalyzeKernel(setup)),
        Start::Puzzles => app.start_on(Action::OpenPuzzles),
        Start::Review { topic, new, .. } => {
            if let Some(deck) = app.review.as_mut() {
                deck.set_topic_filter(topic);
                if let Some(new) = new {
                    let (introduced, _) = deck.studied_on(deck.today());
                    deck.set_new_per_day(introduced.saturating_add(new));
                }
            }
            app.start_on(Action::OpenReview);
        }
    }
    drive(&mut app, false)
}

/// Whether the tutor may write the review log: only while its progress store holds the data
/// directory's lock. Otherwise the reason, in `lang`, names the lock when another warpdrill holds it.
pub fn review_access(store: Option<&Store>, lang: Lang) -> crate::srs::store::Access {
    use crate::srs::store::Access;
    match store {
        Some(store) if store.saves() => Access::Write,
        Some(store) if store.busy() => Access::ReadOnly(t!(
            lang,
            "app-review-locked",
            dir = store
                .path()
                .parent()
                .map(|d| d.display().to_string())
                .unwrap_or_default()
        )),
        _ => Access::ReadOnly(t!(lang, "app-review-read-only")),
    }
}

/// Whether this is an interactive terminal; if not, says so (on stderr) for the tutor.
pub fn interactive() -> bool {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        output::stderr(
            "warpdrill: the tutor needs an interactive terminal, and this is not one.\n\
             For scripts use `warpdrill calc …`, `warpdrill content …` or `warpdrill check …` (see --help).\n",
        );
        return false;
    }
    true
}

/// Runs a set-up app in the terminal until the learner quits, with signals handled and the terminal
/// restored however it ends; `tick` redraws every second even without keys (a lab's clock).
pub fn drive(app: &mut App, tick: bool) -> u8 {
    let signals = Signals::default();
    if let Err(e) = signals.install() {
        app.notices
            .push(t!(app.lang, "app-no-signals", error = e.to_string()));
    }
    signals.watch_hangup();
    let mut terminal = match start_terminal() {
        Ok(terminal) => terminal,
        Err(e) => {
            restore_terminal();
            output::stderr(&format!("warpdrill: cannot set up the terminal: {e}\n"));
            return 1;
        }
    };
    let guard = TerminalGuard;
    let result = loop {
        match app::run(&mut terminal, app, || {
            // While a kernel is analysed on a worker thread, wake up often to show its result.
            let wake = if crate::ui::analyze::working() {
                Some(std::time::Duration::from_millis(50))
            } else if crate::ui::puzzle::watching() {
                // The puzzle screen looks at its file's modification time.
                Some(crate::ui::puzzle::POLL)
            } else {
                tick.then_some(std::time::Duration::from_secs(1))
            };
            signals.next_event_or_tick(wake)
        }) {
            Ok(()) => break Ok(0),
            Err(e) => match Interruption::of(&e) {
                Some(Interruption::Terminate(signal)) => {
                    break Ok(u8::try_from(128 + signal).unwrap_or(1));
                }
                Some(Interruption::Suspend) => {
                    if let Err(e) = suspend(&mut terminal, &signals) {
                        break Err(e);
                    }
                }
                Some(Interruption::Redraw) => {
                    if let Err(e) = resume(&mut terminal) {
                        break Err(e);
                    }
                }
                None => break Err(e),
            },
        }
    };
    app.update(Action::Home);
    app.save();
    drop(guard);
    match result {
        Ok(status) => status,
        Err(e) => {
            output::stderr(&format!("warpdrill: {e}\n"));
            1
        }
    }
}
