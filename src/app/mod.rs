//! The application: the screen stack, the learner's progress, and [`App::update`], the one place
//! where anything outside a screen changes.
//!
//! Data flows one way: key → [`App::handle_key`] (global keys, else the top screen's
//! [`Component::handle_key`]) → [`Action`] → [`App::update`] → state → [`view::render`].

pub mod settings;
pub mod view;

use crate::clock::Clock;
use crate::content::Content;
use crate::content::schema::Level;
use crate::i18n::Lang;
use crate::lab::LabSession;
use crate::ladder::mastery::Board;
use crate::ladder::{self, Outcome, ShowMe, Standing, practice, unlock};
use crate::progress::{HISTORY, Progress, Store};
use crate::srs::Deck;
use crate::t;
pub use crate::ui::Action;
use crate::ui::{
    Component, Ctx, ExplorerSetup, KeyHint, Space, Tab, Theme, analyze as analyze_ui, calculators,
    card, exercise, explorer, home, lab as lab_ui, ladder as ladder_ui, lesson,
    puzzle as puzzle_ui, review, search, stats, topic,
};
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::sync::Arc;

pub use view::{draw, render, run};

/// One screen on the navigation stack.
#[derive(Debug, Clone)]
pub enum Screen {
    /// The start screen.
    Home(home::State),
    /// Levels and their exercises.
    Ladder(ladder_ui::State),
    /// One exercise variant.
    Exercise(Box<exercise::State>),
    /// The lessons, one per topic.
    Lessons(lesson::List),
    /// One lesson, page by page.
    Lesson(Box<lesson::State>),
    /// A topic with its analogy, exercises and cards.
    Topic(topic::State),
    /// One flashcard.
    Card(card::State),
    /// The access-pattern explorer.
    Explorer(Box<explorer::State>),
    /// Occupancy, tiling and roofline calculators.
    Calculators(Box<calculators::State>),
    /// A flashcard review session.
    Review(Box<review::State>),
    /// Review statistics.
    Stats(Box<stats::State>),
    /// The list of built-in kernels to analyse.
    AnalyzeExamples(analyze_ui::Examples),
    /// One analysed kernel.
    Analyze(Box<analyze_ui::State>),
    /// A kernel being analysed on a worker thread.
    Analyzing(analyze_ui::Pending),
    /// Lab mode: the lab's steps (the base of the stack).
    LabOverview(lab_ui::Overview),
    /// Lab mode: one step.
    LabStep(Box<lab_ui::Step>),
    /// Lab mode: a step that is a kernel puzzle.
    LabPuzzle(Box<lab_ui::PuzzleStep>),
    /// Lab mode: handed in, with the receipt.
    LabEnd(lab_ui::End),
    /// The kernel puzzles.
    Puzzles(puzzle_ui::List),
    /// One kernel puzzle, watching the learner's file.
    Puzzle(Box<puzzle_ui::State>),
}

impl Screen {
    /// The screen as a component.
    pub fn component(&self) -> &dyn Component {
        match self {
            Screen::Home(state) => state,
            Screen::Ladder(state) => state,
            Screen::Exercise(state) => state.as_ref(),
            Screen::Topic(state) => state,
            Screen::Lessons(state) => state,
            Screen::Lesson(state) => state.as_ref(),
            Screen::Card(state) => state,
            Screen::Explorer(state) => state.as_ref(),
            Screen::Calculators(state) => state.as_ref(),
            Screen::Review(state) => state.as_ref(),
            Screen::Stats(state) => state.as_ref(),
            Screen::AnalyzeExamples(state) => state,
            Screen::Analyze(state) => state.as_ref(),
            Screen::Analyzing(state) => state,
            Screen::LabOverview(state) => state,
            Screen::LabStep(state) => state.as_ref(),
            Screen::LabPuzzle(state) => state.as_ref(),
            Screen::LabEnd(state) => state,
            Screen::Puzzles(state) => state,
            Screen::Puzzle(state) => state.as_ref(),
        }
    }

    /// The screen as a component that can change.
    pub fn component_mut(&mut self) -> &mut dyn Component {
        match self {
            Screen::Home(state) => state,
            Screen::Ladder(state) => state,
            Screen::Exercise(state) => state.as_mut(),
            Screen::Topic(state) => state,
            Screen::Lessons(state) => state,
            Screen::Lesson(state) => state.as_mut(),
            Screen::Card(state) => state,
            Screen::Explorer(state) => state.as_mut(),
            Screen::Calculators(state) => state.as_mut(),
            Screen::Review(state) => state.as_mut(),
            Screen::Stats(state) => state.as_mut(),
            Screen::AnalyzeExamples(state) => state,
            Screen::Analyze(state) => state.as_mut(),
            Screen::Analyzing(state) => state,
            Screen::LabOverview(state) => state,
            Screen::LabStep(state) => state.as_mut(),
            Screen::LabPuzzle(state) => state.as_mut(),
            Screen::LabEnd(state) => state,
            Screen::Puzzles(state) => state,
            Screen::Puzzle(state) => state.as_mut(),
        }
    }
}

/// Something drawn over the current screen.
#[derive(Debug, Clone)]
pub enum Overlay {
    /// The fuzzy search palette.
    Search(search::State),
    /// The keys of the current screen.
    Help,
}

/// The application state.
pub struct App {
    /// Topics, cards and exercises.
    pub content: Content,
    /// The learner's progress.
    pub progress: Progress,
    /// Where progress is saved (`None`: not saved).
    pub store: Option<Store>,
    /// Messages for the learner (damaged progress, skipped content, save failures).
    pub notices: Vec<String>,
    /// Styles.
    pub theme: Theme,
    /// The language the screens speak (change it with [`App::set_lang`]).
    pub lang: Lang,
    /// Where the language set on Home is remembered (`None`: not remembered).
    pub settings: Option<std::path::PathBuf>,
    /// Navigation stack; the last is shown.
    pub stack: Vec<Screen>,
    /// Drawn over the screen.
    pub overlay: Option<Overlay>,
    /// Set when the learner quits.
    pub quit: bool,
    /// The lab being worked on (lab mode: only its steps are open).
    pub lab: Option<LabSession>,
    /// A one-off message for the footer (cleared by the next key).
    pub flash: Option<String>,
    /// Why the last save of progress failed; cleared by the next save that succeeds. While set,
    /// every screen's footer says progress is not saved.
    pub unsaved: Option<String>,
    /// The terminal's size, columns × rows, as last reported.
    pub size: (u16, u16),
    /// The flashcards with their review log (none: review is not available).
    pub review: Option<Deck>,
    /// Practise what you missed: the exercises left to practise, in order (none: not practising).
    pub practice: Option<Vec<String>>,
    /// Run long work (analysing a kernel) on a worker thread while the screen keeps answering keys;
    /// off, it runs before the next frame (as tests that step the app want).
    pub background: bool,
    clock: Arc<dyn Clock>,
    seeds: Box<dyn FnMut() -> u64>,
    /// Home, when the stack is empty (it never is: `Back` on Home quits instead of popping). A
    /// field, not a static: screens keep what their last drawing measured in cells, which a
    /// static cannot share between threads.
    home: Screen,
    /// How far help is scrolled.
    help_scroll: crate::ui::scroll::Scroll,
    /// The data directory (`None`: nothing is saved), where puzzle files and records are kept.
    pub data_dir: Option<std::path::PathBuf>,
    /// The kernel puzzles solved and their best figures.
    pub puzzles: crate::puzzle::record::Record,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("stack", &self.stack)
            .field("overlay", &self.overlay)
            .finish_non_exhaustive()
    }
}

/// A key that works on every screen: what it is called in help, what it does, and whether a screen
/// that is taking text (an answer box, a typed value) gets it first.
struct GlobalKey {
    code: KeyCode,
    ctrl: bool,
    name: &'static str,
    what: fn(Lang) -> String,
    action: fn() -> Action,
    yields_to_text: bool,
}

/// The global keys, in the order help lists them. [`App::handle_key`] and help both read this table.
const GLOBAL_KEYS: &[GlobalKey] = &[
    GlobalKey {
        code: KeyCode::Char('/'),
        ctrl: false,
        name: "/",
        what: |lang| t!(lang, "app-key-search"),
        action: || Action::OpenSearch,
        yields_to_text: true,
    },
    GlobalKey {
        code: KeyCode::Char('p'),
        ctrl: true,
        name: "Ctrl-P",
        what: |lang| t!(lang, "app-key-search"),
        action: || Action::OpenSearch,
        yields_to_text: false,
    },
    GlobalKey {
        code: KeyCode::Char('?'),
        ctrl: false,
        name: "?",
        what: |lang| t!(lang, "app-key-help"),
        action: || Action::ToggleHelp,
        yields_to_text: true,
    },
    GlobalKey {
        code: KeyCode::F(1),
        ctrl: false,
        name: "F1",
        what: |lang| t!(lang, "app-key-help"),
        action: || Action::ToggleHelp,
        yields_to_text: false,
    },
    GlobalKey {
        code: KeyCode::Char('g'),
        ctrl: false,
        name: "g",
        what: |lang| t!(lang, "app-key-home"),
        action: || Action::Home,
        yields_to_text: true,
    },
    GlobalKey {
        code: KeyCode::Esc,
        ctrl: false,
        name: "Esc",
        what: |lang| t!(lang, "app-key-back"),
        action: || Action::Back,
        yields_to_text: true,
    },
    GlobalKey {
        code: KeyCode::Char('q'),
        ctrl: false,
        name: "q",
        what: |lang| t!(lang, "app-key-back"),
        action: || Action::Back,
        yields_to_text: true,
    },
    GlobalKey {
        code: KeyCode::Char('c'),
        ctrl: true,
        name: "Ctrl-C",
        what: |lang| t!(lang, "app-key-quit"),
        action: || Action::Quit,
        yields_to_text: false,
    },
];

impl GlobalKey {
    fn event(&self) -> KeyEvent {
        let modifiers = if self.ctrl {
            KeyModifiers::CONTROL
        } else {
            KeyModifiers::NONE
        };
        KeyEvent::new(self.code, modifiers)
    }

    fn matches(&self, key: &KeyEvent) -> bool {
        key.code == self.code && key.modifiers.contains(KeyModifiers::CONTROL) == self.ctrl
    }
}

impl App {
    /// An app on Home. `clock` is the one clock of the tutor (give the review deck the same one,
    /// [`App::clock`]); `seeds` gives the seed of each new variant.
    pub fn new(
        content: Content,
        progress: Progress,
        store: Option<Store>,
        theme: Theme,
        clock: Arc<dyn Clock>,
        seeds: Box<dyn FnMut() -> u64>,
    ) -> Self {
        let mut notices = Vec::new();
        if let Some(first) = content.problems.first() {
            notices.push(content_problems(Lang::En, &content, first));
        }
        App {
            content,
            progress,
            store,
            notices,
            theme,
            lang: Lang::En,
            settings: None,
            stack: vec![Screen::Home(home::State::default())],
            overlay: None,
            quit: false,
            lab: None,
            flash: None,
            unsaved: None,
            size: (u16::MAX, u16::MAX),
            review: None,
            practice: None,
            background: false,
            clock,
            seeds,
            home: Screen::Home(home::State::new()),
            help_scroll: Default::default(),
            data_dir: None,
            puzzles: Default::default(),
        }
    }

    /// Switches the language the tutor speaks, at once: the screens speak `lang` from the next
    /// frame on.
    pub fn set_lang(&mut self, lang: Lang) {
        let before = self.lang;
        self.lang = lang;
        // The content-problems notice is worded in the language spoken.
        if let Some(first) = self.content.problems.first() {
            let old = content_problems(before, &self.content, first);
            let new = content_problems(lang, &self.content, first);
            for notice in &mut self.notices {
                if *notice == old {
                    *notice = new.clone();
                }
            }
        }
        // Content follows the language: topics, cards and exercises switch with the screens.
        if self.content.lang != lang {
            self.content = self.content.in_lang(lang);
        }
    }

    /// Switches the language from the setting on Home: at once, remembered in the settings file,
    /// and said in the new language; a failed save becomes a notice.
    fn choose_lang(&mut self, lang: Lang) {
        self.set_lang(lang);
        self.flash = Some(t!(lang, "lang-switched", name = lang.native_name()));
        if let Some(path) = &self.settings
            && let Err(e) = settings::save_lang(path, lang, self.now())
        {
            let message = t!(
                lang,
                "app-settings-not-saved",
                path = path.display().to_string(),
                error = e.to_string()
            );
            self.notice(message);
        }
    }

    /// Lab mode: the lab's overview becomes the base of the stack, and everything outside the lab
    /// (search, the ladder, unlocking, other exercises) is closed.
    pub fn start_lab(&mut self, session: LabSession) {
        let overview = lab_ui::Overview::new(&session);
        let submitted = session.tally.submitted.is_some();
        self.lab = Some(session);
        self.overlay = None;
        self.stack = vec![Screen::LabOverview(overview)];
        if submitted {
            self.stack.push(Screen::LabEnd(lab_ui::End::default()));
        }
    }

    /// The screen shown.
    pub fn screen(&self) -> &Screen {
        self.stack.last().unwrap_or(&self.home)
    }

    /// Now, in Unix seconds.
    pub fn now(&self) -> u64 {
        self.clock.now_secs()
    }

    /// The app's clock, for what must keep the same time (the review deck).
    pub fn clock(&self) -> Arc<dyn Clock> {
        Arc::clone(&self.clock)
    }

    /// What the screens may read.
    pub fn ctx(&self) -> Ctx<'_> {
        Ctx {
            content: &self.content,
            progress: &self.progress,
            notices: &self.notices,
            theme: self.theme,
            lang: self.lang,
            clock: self.clock.as_ref(),
            now: self.now(),
            review: self.review.as_ref(),
            lab: self.lab.as_ref(),
        }
    }

    /// Saves progress; a failure becomes a notice, never a crash.
    pub fn save(&mut self) {
        let Some(store) = &self.store else { return };
        match store.save(&self.progress) {
            Ok(()) => {
                if self.unsaved.take().is_some() {
                    self.flash = Some(t!(self.lang, "app-saved-again"));
                }
            }
            Err(e) => {
                let message = save_failure(self.lang, &e);
                // Said at once on the screen the learner is on, and kept on Home.
                self.flash = Some(message.clone());
                if !self.notices.contains(&message) {
                    self.notices.push(message.clone());
                }
                self.unsaved = Some(message);
            }
        }
    }

    /// The ladder's topic-levels with their mastery and what is open (recall from the review
    /// deck, when there is one).
    pub fn board(&self) -> Board {
        Board::new(
            &self.content,
            &self.progress,
            self.review
                .as_ref()
                .map(|d| d.recall_by_topic())
                .unwrap_or_default(),
        )
    }

    /// Whether any topic of a level is open (see [`unlock::level_open`]).
    pub fn level_open(&self, level: Level) -> bool {
        unlock::level_open(&self.board(), level)
    }

    /// Opens the app on a screen of its own (`warpdrill explore`, `warpdrill calculators`): the
    /// screen replaces Home at the bottom of the stack, so `q` quits and `g` still reaches Home.
    pub fn start_on(&mut self, action: Action) {
        self.update(action);
        if self.stack.len() > 1 {
            self.stack.remove(0);
        }
    }

    /// Takes the result of work done on a worker thread, if it is there: an analysed kernel
    /// replaces its "analysing…" screen (an error goes back, saying why). Call it between events.
    pub fn poll_work(&mut self) {
        self.poll_puzzle();
        self.poll_lab_time();
        let Some(Screen::Analyzing(pending)) = self.stack.last() else {
            return;
        };
        let Some(outcome) = pending.take() else {
            return;
        };
        let file = pending.file().to_string();
        self.stack.pop();
        match outcome {
            Ok(state) => self.stack.push(Screen::Analyze(Box::new(state))),
            Err(message) => {
                self.flash = Some(self.cannot_analyse(&file, &message));
                if self.stack.is_empty() {
                    self.stack.push(Screen::Home(home::State::default()));
                }
            }
        }
    }

    /// A lab whose time is up (by this machine's clock) is handed in, as a served lab is by the
    /// server's: the end screen shows the score and the receipt.
    fn poll_lab_time(&mut self) {
        let now = self.now();
        let Some(lab) = &mut self.lab else {
            return;
        };
        match lab.expire(now) {
            Ok(false) => {}
            Ok(true) => {
                self.stack.truncate(1);
                self.stack.push(Screen::LabEnd(lab_ui::End::default()));
                self.flash = Some(t!(self.lang, "app-lab-time-up-handed-in"));
            }
            Err(e) => {
                self.flash = Some(t!(
                    self.lang,
                    "app-lab-not-submitted",
                    error = e.to_string()
                ))
            }
        }
    }

    /// The puzzle screen on top looks at its file (and takes a finished check, which is recorded).
    fn poll_puzzle(&mut self) {
        let (lang, now) = (self.lang, self.now());
        if let Some(Screen::LabPuzzle(step)) = self.stack.last_mut() {
            puzzle_ui::set_watching(true);
            // A lab's checks are the student's trials: they go to the lab when handed in.
            if let Some(action) = step.tick(lang, now) {
                self.update(action);
            }
            return;
        }
        let Some(Screen::Puzzle(state)) = self.stack.last_mut() else {
            puzzle_ui::set_watching(false);
            return;
        };
        puzzle_ui::set_watching(true);
        if let Some(outcome) = state.poll(false) {
            self.note_puzzle(&outcome);
        }
    }

    /// Records a puzzle's check, saves the record, and shows it on the puzzle screens.
    fn note_puzzle(&mut self, outcome: &crate::puzzle::check::Outcome) {
        self.puzzles.note(outcome);
        if let Some(dir) = &self.data_dir
            && let Err(e) = self.puzzles.save(dir)
        {
            self.flash = Some(t!(
                self.lang,
                "cli-error",
                message = format!("{}: {e}", crate::puzzle::record::path(dir).display())
            ));
        }
        let entry = self.puzzles.puzzles.get(&outcome.puzzle).cloned();
        for screen in &mut self.stack {
            match screen {
                Screen::Puzzle(state) if state.id() == outcome.puzzle => {
                    state.set_best(entry.clone())
                }
                Screen::Puzzles(list) if outcome.solved => list.mark_solved(&outcome.puzzle),
                _ => {}
            }
        }
    }

    /// Asks every analysis still running for a screen on the stack to stop.
    pub fn cancel_work(&self) {
        for screen in &self.stack {
            if let Screen::Analyzing(pending) = screen {
                pending.cancel();
            }
        }
    }

    /// "Cannot analyse FILE: why", in the learner's language, with nothing raw in it.
    fn cannot_analyse(&self, file: &str, message: &str) -> String {
        t!(
            self.lang,
            "analyze-cannot",
            file = crate::format::printable(file).into_owned(),
            message = crate::format::printable(message).into_owned()
        )
    }

    /// Records the terminal's size (drawing and key handling depend on it).
    pub fn resize(&mut self, width: u16, height: u16) {
        self.size = (width, height);
    }

    /// Whether the terminal is below the smallest size the tutor draws in.
    pub fn too_small(&self) -> bool {
        self.size.0 < crate::ui::MIN_WIDTH || self.size.1 < crate::ui::MIN_HEIGHT
    }

    /// Turns a terminal event into an action (key releases are ignored; a resize is recorded).
    pub fn handle_event(&mut self, event: &Event) -> Option<Action> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.handle_key(*key),
            Event::Resize(width, height) => {
                self.resize(*width, *height);
                None
            }
            Event::Paste(text) => self.handle_paste(text),
            _ => None,
        }
    }

    /// The global keys that work on the screen shown now, as help lists them: a key the screen takes
    /// as text (`q`, `?`, `/`, `g` in an answer box) is left out.
    /// In a lab, search is left out and `g` leads to the lab's overview.
    pub fn global_keys(&self) -> Vec<KeyHint> {
        let screen = self.screen().component();
        let lab = self.lab.is_some();
        GLOBAL_KEYS
            .iter()
            .filter(|global| !(global.yields_to_text && screen.captures(&global.event())))
            .filter(|global| !(lab && (global.action)() == Action::OpenSearch))
            .map(|global| match (global.action)() {
                Action::Home if lab => {
                    KeyHint::new(global.name, t!(self.lang, "app-key-lab-overview"))
                }
                _ => KeyHint::new(global.name, (global.what)(self.lang)),
            })
            .collect()
    }

    /// Pasted text (bracketed paste) goes to the search box or the screen shown, whichever has the
    /// keys, as one edit of its text input; a paste never submits and is never read as keys.
    pub fn handle_paste(&mut self, text: &str) -> Option<Action> {
        self.flash = None;
        if self.too_small() {
            return None;
        }
        let ctx = Ctx {
            content: &self.content,
            progress: &self.progress,
            notices: &self.notices,
            theme: self.theme,
            lang: self.lang,
            clock: self.clock.as_ref(),
            now: self.clock.now_secs(),
            review: self.review.as_ref(),
            lab: self.lab.as_ref(),
        };
        match &mut self.overlay {
            Some(Overlay::Help) => None,
            Some(Overlay::Search(state)) => state.handle_paste(text, &ctx),
            None => self
                .stack
                .last_mut()?
                .component_mut()
                .handle_paste(text, &ctx),
        }
    }

    /// Turns a key into an action: global keys first, then the overlay's or screen's own. The
    /// overlay or screen may change its own state on the way; nothing else changes here.
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<Action> {
        self.flash = None;
        let global = GLOBAL_KEYS.iter().find(|global| global.matches(&key));
        if let Some(global) = global
            && global.ctrl
        {
            return Some((global.action)());
        }
        if self.too_small() {
            // Only the "too small" message is shown: nothing hidden behind it may take keys.
            return matches!(key.code, KeyCode::Char('q') | KeyCode::Esc).then_some(Action::Quit);
        }
        if let Some(global) = global
            && !global.yields_to_text
        {
            return Some((global.action)());
        }
        let ctx = Ctx {
            content: &self.content,
            progress: &self.progress,
            notices: &self.notices,
            theme: self.theme,
            lang: self.lang,
            clock: self.clock.as_ref(),
            now: self.clock.now_secs(),
            review: self.review.as_ref(),
            lab: self.lab.as_ref(),
        };
        match &mut self.overlay {
            Some(Overlay::Help) => {
                return match key.code {
                    KeyCode::Char('q') | KeyCode::Esc | KeyCode::Char('?') | KeyCode::Enter => {
                        Some(Action::CloseOverlay)
                    }
                    _ => {
                        // Help's arrows move nothing else: they scroll it, as PgUp/PgDn do.
                        self.help_scroll.key(&key, true);
                        None
                    }
                };
            }
            Some(Overlay::Search(state)) => {
                return match key.code {
                    KeyCode::Esc => Some(Action::CloseOverlay),
                    _ => state.handle_key(key, &ctx),
                };
            }
            None => {}
        }
        let screen = self.stack.last_mut()?.component_mut();
        match global {
            Some(global) if !screen.captures(&key) => Some((global.action)()),
            _ => screen.handle_key(key, &ctx),
        }
    }

    /// Carries out an action: the only place where progress, the stack and saving change.
    pub fn update(&mut self, action: Action) {
        if let Some(lab) = &self.lab
            && let Some(message) = closed_in_lab(&action, lab.lab.show_me, self.lang)
        {
            self.flash = Some(message);
            return;
        }
        if navigates(&action) {
            self.overlay = None;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::Back => {
                self.leave_exercise();
                if let Some(Screen::Analyzing(pending)) = self.stack.last() {
                    pending.cancel();
                }
                if let Some(top) = self.stack.last() {
                    self.remember_tools(&top.clone());
                }
                if self.stack.len() > 1 {
                    self.stack.pop();
                } else {
                    self.quit = true;
                }
            }
            Action::Home => {
                self.leave_exercise();
                self.cancel_work();
                for screen in self.stack.clone().iter().skip(1) {
                    self.remember_tools(screen);
                }
                if let Some(first) = self.stack.first().cloned() {
                    self.remember_tools(&first);
                }
                self.stack.truncate(1);
                if let Some(lab) = &self.lab {
                    // Lab mode: the lab's overview is home.
                    self.stack = vec![Screen::LabOverview(lab_ui::Overview::new(lab))];
                } else if !matches!(self.stack.first(), Some(Screen::Home(_))) {
                    self.stack = vec![Screen::Home(home::State::default())];
                }
            }
            Action::OpenLadder(level) => {
                let level = level.unwrap_or_else(|| {
                    unlock::current_level(&self.content, &self.progress, &self.board())
                });
                self.stack
                    .push(Screen::Ladder(ladder_ui::State::new(level)));
            }
            Action::OpenExercise(id) => {
                self.practice = None;
                self.open_exercise(&id, None)
            }
            Action::OpenPractice => self.start_practice(),
            Action::OpenTopic(id) => {
                if self.content.topic(&id).is_some() {
                    self.stack.push(Screen::Topic(topic::State::new(&id)));
                }
            }
            Action::OpenCard(id) => {
                if self.content.cards.iter().any(|c| c.id == id) {
                    self.stack.push(Screen::Card(card::State::new(&id)));
                }
            }
            Action::OpenExplorer(setup) => self.push_explorer(&setup),
            Action::OpenAnalyzeExamples => self
                .stack
                .push(Screen::AnalyzeExamples(analyze_ui::Examples::default())),
            Action::AnalyzeKernel(setup) if self.background => {
                self.stack
                    .push(Screen::Analyzing(analyze_ui::Pending::start(*setup)));
            }
            Action::AnalyzeKernel(setup) => match analyze_ui::State::new(&setup) {
                Ok(state) => self.stack.push(Screen::Analyze(Box::new(state))),
                Err(message) => self.flash = Some(self.cannot_analyse(&setup.file, &message)),
            },
            Action::OpenPuzzles => {
                let solved = self
                    .puzzles
                    .puzzles
                    .iter()
                    .filter(|(_, e)| e.solved)
                    .map(|(id, _)| id.clone())
                    .collect();
                self.stack
                    .push(Screen::Puzzles(puzzle_ui::List::new(self.lang, solved)));
            }
            Action::OpenPuzzle(id) => {
                let path = self.puzzles.file_of(&id, self.data_dir.as_deref());
                let best = self.puzzles.puzzles.get(&id).cloned();
                if let Some(state) = puzzle_ui::State::new(&id, self.lang, path, best) {
                    self.stack.push(Screen::Puzzle(Box::new(state)));
                    self.poll_puzzle();
                }
            }
            Action::PuzzleStart(id) => {
                // Where the screen on top watches (a lab step's folder), else the data directory's.
                let watched = match self.stack.last() {
                    Some(Screen::LabPuzzle(step)) => step.puzzle.path().cloned(),
                    Some(Screen::Puzzle(state)) => state.path().cloned(),
                    _ => None,
                };
                let folder = watched
                    .and_then(|p| p.parent().map(std::path::Path::to_path_buf))
                    .or_else(|| {
                        self.data_dir
                            .as_deref()
                            .map(crate::puzzle::record::files_dir)
                    });
                if let (Some(dir), Some(p)) = (folder, crate::puzzle::find(&id, self.lang)) {
                    match crate::puzzle::record::start(&p, &dir, false) {
                        Ok(path) => {
                            self.flash = Some(t!(
                                self.lang,
                                "puzzle-start-wrote",
                                path = path.display().to_string(),
                                id = id.as_str()
                            ))
                        }
                        Err(crate::puzzle::record::StartError::Exists(path)) => {
                            self.flash = Some(t!(
                                self.lang,
                                "puzzle-start-exists",
                                path = path.display().to_string()
                            ))
                        }
                        Err(e) => {
                            self.flash = Some(t!(self.lang, "cli-error", message = e.to_string()))
                        }
                    }
                    self.poll_puzzle();
                } else {
                    self.flash = Some(t!(self.lang, "puzzle-no-data-dir"));
                }
            }
            Action::OpenCalculators(tab) => self
                .stack
                .push(Screen::Calculators(Box::new(calculators::State::new(tab)))),
            Action::ReopenExplorer => {
                let state = match &self.progress.explorer {
                    Some(saved) => explorer::State::from_settings(saved),
                    None => explorer::State::default(),
                };
                self.stack.push(Screen::Explorer(Box::new(state)));
            }
            Action::ReopenCalculators => {
                let state = match &self.progress.calculators {
                    Some(saved) => calculators::State::from_settings(saved),
                    None => calculators::State::new(Tab::Occupancy),
                };
                self.stack.push(Screen::Calculators(Box::new(state)));
            }
            Action::ShowMe(target) => {
                self.leave_exercise();
                self.show_me(&target);
            }
            Action::OpenSearch => {
                self.overlay = Some(Overlay::Search(search::State::new(&self.content)));
            }
            Action::ToggleHelp => {
                self.help_scroll.reset();
                self.overlay = match self.overlay {
                    Some(Overlay::Help) => None,
                    _ => Some(Overlay::Help),
                }
            }
            Action::CloseOverlay => self.overlay = None,
            Action::SetLang(lang) => self.choose_lang(lang),
            Action::UnlockAll => {
                self.progress.unlock_all = true;
                self.save();
            }
            Action::Attempt { id, record, since } => self.record_attempt(&id, &record, since),
            Action::HintShown(id) => {
                self.progress.entry(&id).hints_used += 1;
                self.save();
            }
            Action::OpenLessons => {
                let list = lesson::List::new(&self.content, &self.progress);
                self.stack.push(Screen::Lessons(list));
            }
            Action::OpenLesson(id) => self.open_lesson(&id),
            Action::LessonPage { id, page, last } => {
                let entry = self.progress.lessons.entry(id).or_default();
                entry.page = page;
                entry.read |= last;
                self.save();
            }
            Action::LessonSolved { id, exercise } => {
                let entry = self.progress.lessons.entry(id).or_default();
                if !entry.solved.contains(&exercise) {
                    entry.solved.push(exercise);
                }
                self.save();
            }
            Action::Reroll(id) => {
                let seed = self.new_seed();
                self.open_exercise(&id, Some(seed));
            }
            Action::Step { id, by } if self.practising(&id) => self.step_practice(&id, by),
            Action::Step { id, by } => {
                if let Some(next) = unlock::neighbour(&self.content, &self.board(), &id, by) {
                    self.leave_exercise();
                    self.open_exercise(&next, None);
                }
            }
            Action::LabOpen(index) => self.open_lab_step(index),
            Action::LabAttempt {
                step,
                record,
                since,
            } => {
                let now = self.now();
                if let Some(lab) = &mut self.lab
                    && let Err(e) = lab.attempt(
                        step,
                        &record.shown,
                        record.given,
                        record.outcome,
                        now.saturating_sub(since),
                        now,
                    )
                {
                    self.flash = Some(t!(
                        self.lang,
                        "app-answer-not-recorded",
                        error = e.to_string()
                    ));
                }
            }
            Action::LabHint(step) => {
                let now = self.now();
                if let Some(lab) = &mut self.lab
                    && let Err(e) = lab.hint(step, now)
                {
                    self.flash = Some(t!(
                        self.lang,
                        "app-hint-not-recorded",
                        error = e.to_string()
                    ));
                }
                self.sync_lab_puzzle();
            }
            Action::LabKernel {
                step,
                source,
                since,
            } => {
                let now = self.now();
                let lang = self.lang;
                if let Some(lab) = &mut self.lab
                    && let Some(puzzle) = lab
                        .items
                        .get(step)
                        .filter(|i| i.puzzle)
                        .and_then(|i| crate::puzzle::find(&i.exercise, lang))
                {
                    // The check the screen just made, remembered: no second run.
                    let verdict = crate::lab::task::grade_kernel(&puzzle, &source, lang);
                    match lab.kernel(step, &source, &verdict, now.saturating_sub(since), now) {
                        Ok(()) => {
                            let solved = verdict.outcome == crate::ladder::Outcome::Correct;
                            let points = lab.tally.steps[step].points;
                            let left = lab
                                .lab
                                .attempts()
                                .saturating_sub(lab.tally.steps[step].attempts);
                            self.flash =
                                Some(if lab.lab.feedback == crate::lab::FeedbackMode::AtEnd {
                                    t!(lang, "lab-answer-recorded")
                                } else if solved {
                                    t!(lang, "lab-kernel-solved", points = points)
                                } else {
                                    t!(lang, "lab-kernel-not-solved", left = left)
                                });
                        }
                        Err(e) => {
                            self.flash =
                                Some(t!(lang, "app-answer-not-recorded", error = e.to_string()))
                        }
                    }
                }
                self.sync_lab_puzzle();
            }
            Action::LabSubmit => {
                let now = self.now();
                if let Some(lab) = &mut self.lab {
                    match lab.submit(now) {
                        Ok(_) => {
                            self.stack.truncate(1);
                            self.stack.push(Screen::LabEnd(lab_ui::End::default()));
                        }
                        Err(e) => {
                            self.flash = Some(t!(
                                self.lang,
                                "app-lab-not-submitted",
                                error = e.to_string()
                            ))
                        }
                    }
                }
            }
            Action::OpenReview => match &self.review {
                Some(deck) => self
                    .stack
                    .push(Screen::Review(Box::new(review::State::start(
                        deck,
                        &self.content,
                    )))),
                None => self.notice(t!(self.lang, "app-review-no-data-dir")),
            },
            Action::OpenStats => {
                if let Some(deck) = &self.review {
                    let stats = crate::srs::stats::compute(deck);
                    self.stack
                        .push(Screen::Stats(Box::new(stats::State::new(stats))));
                }
            }
            Action::Rate {
                card,
                rating,
                duration_ms,
                drill,
            } => {
                let result = match self.review.as_mut() {
                    Some(deck) => deck.rate(card, rating, duration_ms, drill.as_ref()),
                    None => return,
                };
                self.after_review(result.map(|()| review::Change::Rated(rating, duration_ms)));
            }
            Action::UndoReview => {
                let Some(deck) = self.review.as_mut() else {
                    return;
                };
                let result = deck.undo();
                if let (Some(deck), Some(Screen::Review(state))) =
                    (&self.review, self.stack.last_mut())
                {
                    match result {
                        Ok(card) => state.undone(card, deck, &self.content, self.lang),
                        Err(e) => state.failed(e.to_string()),
                    }
                }
            }
            Action::SuspendCard(card) => {
                if let Some(deck) = self.review.as_mut() {
                    let result = deck.suspend(card);
                    self.after_review(result.map(|()| review::Change::Suspended));
                }
            }
            Action::BuryCard(card) => {
                if let Some(deck) = self.review.as_mut() {
                    let result = deck.bury(card);
                    self.after_review(result.map(|()| review::Change::Buried));
                }
            }
        }
    }

    /// Adds a message for the learner once.
    fn notice(&mut self, message: String) {
        if !self.notices.contains(&message) {
            self.notices.push(message);
        }
    }

    /// After a review change: the session counts a rating and moves on, or says why it could not
    /// be saved.
    fn after_review(&mut self, result: Result<review::Change, crate::srs::SrsError>) {
        let (Some(deck), Some(Screen::Review(state))) = (&self.review, self.stack.last_mut())
        else {
            return;
        };
        match result {
            Ok(change) => state.changed(change, deck, &self.content, self.lang),
            Err(e) => state.failed(t!(self.lang, "app-not-saved", error = e.to_string())),
        }
    }

    /// Keeps the explorer's or calculators' inputs in progress when the learner leaves them, so
    /// Home reopens them as they were (saved with the next save).
    fn remember_tools(&mut self, screen: &Screen) {
        match screen {
            Screen::Explorer(state) => self.progress.explorer = Some(state.settings()),
            Screen::Calculators(state) => self.progress.calculators = Some(state.settings()),
            _ => return,
        }
        self.save();
    }

    /// Lab mode: opens step `index` if the lab's order lets the student see it.
    fn open_lab_step(&mut self, index: usize) {
        let Some(lab) = &self.lab else {
            return;
        };
        if !lab.tally.visible(&lab.lab, index) {
            self.flash = Some(t!(self.lang, "app-lab-step-closed", step = index + 1));
            return;
        }
        let Some(item) = lab.items.get(index) else {
            return;
        };
        if item.puzzle {
            // The starter goes beside the results, in a folder of the student's own, and is
            // kept once written: the student edits it there.
            let path = lab.results.as_ref().and_then(|r| r.parent()).map(|dir| {
                dir.join(format!("{}-{}-kernels", lab.lab.id, lab.student.student))
                    .join(format!("{}.cu", item.exercise))
            });
            let Some(state) = puzzle_ui::State::new(&item.exercise, self.lang, path.clone(), None)
            else {
                self.flash = Some(t!(
                    self.lang,
                    "app-lab-missing-exercise",
                    id = item.exercise.clone()
                ));
                return;
            };
            if let (Some(path), Some(dir)) = (&path, path.as_ref().and_then(|p| p.parent()))
                && !path.exists()
                && let Err(e) = crate::puzzle::record::start(state.puzzle(), dir, false)
            {
                self.flash = Some(t!(self.lang, "cli-error", message = e.to_string()));
            }
            let step = lab_ui::PuzzleStep::new(lab, index, state, self.now());
            self.stack.truncate(1);
            self.stack.push(Screen::LabPuzzle(Box::new(step)));
            self.poll_puzzle();
            return;
        }
        let Some(template) = self.content.exercise(&item.exercise) else {
            self.flash = Some(t!(
                self.lang,
                "app-lab-missing-exercise",
                id = item.exercise.clone()
            ));
            return;
        };
        let variant = ladder::generate(template, item.seed);
        let state = lab_ui::Step::new(lab, index, template, variant, self.now());
        self.stack.truncate(1);
        self.stack.push(Screen::LabStep(Box::new(state)));
    }

    /// The lab's puzzle step on the stack shows the hints booked and, once done, the reference.
    fn sync_lab_puzzle(&mut self) {
        let Some(lab) = &self.lab else {
            return;
        };
        for screen in &mut self.stack {
            if let Screen::LabPuzzle(step) = screen {
                step.sync(lab);
            }
        }
    }

    fn push_explorer(&mut self, setup: &ExplorerSetup) {
        self.stack
            .push(Screen::Explorer(Box::new(explorer::State::from_setup(
                setup,
            ))));
    }

    /// Opens the explorer or the calculator an exercise points at, on its numbers.
    fn show_me(&mut self, target: &ShowMe) {
        match target {
            ShowMe::Global { arch, access } => {
                self.push_explorer(&ExplorerSetup::new(arch, Space::Global, access))
            }
            ShowMe::Shared { arch, access } => {
                self.push_explorer(&ExplorerSetup::new(arch, Space::Shared, access))
            }
            _ => {
                let state = calculators::State::from_show_me(target)
                    .unwrap_or_else(|| calculators::State::new(Tab::Occupancy));
                self.stack.push(Screen::Calculators(Box::new(state)));
            }
        }
    }

    /// A fresh seed for a new variant.
    pub fn new_seed(&mut self) -> u64 {
        (self.seeds)()
    }

    /// Opens an exercise: the variant last shown (so numbers stay put), or a new one; `seed` forces one.
    pub fn open_exercise(&mut self, id: &str, seed: Option<u64>) {
        let Some(template) = self.content.exercise(id).cloned() else {
            return;
        };
        let past = self.progress.of(id);
        let seed = seed.unwrap_or_else(|| {
            if past.last_seen > 0 {
                past.last_seed
            } else {
                self.new_seed()
            }
        });
        let now = self.now();
        let variant = ladder::generate(&template, seed);
        let state = exercise::State::new(&template, variant, past.history.clone(), now);
        let entry = self.progress.entry(id);
        entry.last_seed = seed;
        entry.last_seen = now;
        self.progress.last_exercise = Some(id.to_string());
        self.save();
        // Replace an exercise on top (next/previous/re-roll) instead of stacking them.
        if matches!(self.stack.last(), Some(Screen::Exercise(_))) {
            self.stack.pop();
        }
        self.stack.push(Screen::Exercise(Box::new(state)));
    }

    /// Opens a lesson where the learner left it (a lesson already on the stack is replaced).
    pub fn open_lesson(&mut self, id: &str) {
        let seed = self.new_seed();
        let now = self.now();
        let Some(lesson) = self.content.lesson(id) else {
            return;
        };
        let page = self.progress.lessons.get(id).map_or(0, |p| p.page);
        let state = lesson::State::new(lesson, page, seed, now);
        let one_page = lesson.steps.len() <= 1;
        if matches!(self.stack.last(), Some(Screen::Lesson(_))) {
            self.stack.pop();
        }
        self.stack.push(Screen::Lesson(Box::new(state)));
        let entry = self.progress.lessons.entry(id.to_string()).or_default();
        // A lesson of one page is read once it is open.
        entry.read |= one_page;
        self.save();
    }

    /// Books the time spent on the exercise shown, and saves.
    fn leave_exercise(&mut self) {
        let now = self.now();
        if let Some(Screen::Exercise(state)) = self.stack.last_mut() {
            let spent = state.book_time(now);
            let id = state.id().to_string();
            let entry = self.progress.entry(&id);
            entry.seconds = entry.seconds.saturating_add(spent);
            self.save();
        }
    }

    /// Records a graded answer; `since` is when the time now booked began. Solved, seen or wrong is
    /// the attempt's word ([`crate::ladder::Record::standing`]): a right answer after the answer was
    /// shown marks the exercise seen, never unsolves it.
    pub fn record_attempt(&mut self, id: &str, record: &crate::ladder::Record, since: u64) {
        let now = self.now();
        let open_before = self.board().open_cells();
        let entry = self.progress.entry(id);
        entry.attempts = entry.attempts.saturating_add(1);
        if record.hint_offered {
            entry.hints_used = entry.hints_used.saturating_add(1);
        }
        match record.standing() {
            Standing::Solved => {
                entry.solved = true;
                entry.missed = false;
            }
            Standing::Seen => {
                entry.seen |= !entry.solved;
                entry.missed = true;
            }
            Standing::Wrong => entry.missed = true,
        }
        let outcome = record.outcome;
        let answer = record.shown.as_str();
        entry.seconds = entry.seconds.saturating_add(now.saturating_sub(since));
        entry.last_seen = now;
        if !answer.trim().is_empty() {
            entry.history.push(answer.to_string());
            let excess = entry.history.len().saturating_sub(HISTORY);
            entry.history.drain(..excess);
        }
        self.remember_opened(&open_before);
        self.save();
        // A wrong answer brings the flashcards of the exercise's skill forward to today.
        let missed = (outcome == Outcome::Wrong)
            .then(|| self.content.exercise(id))
            .flatten();
        if let (Some(exercise), Some(deck)) = (missed, self.review.as_mut())
            && let Err(e) = deck.lapse_cards(&deck.cards_for_miss(
                &exercise.id,
                exercise.skill.as_deref(),
                &exercise.topic,
            ))
        {
            let message = t!(
                self.lang,
                "app-review-log-not-updated",
                error = e.to_string()
            );
            self.notice(message);
        }
    }
}

impl App {
    /// Keeps every topic-level open now in progress (so that it stays open), and says which ones
    /// were not open in `before`: `L2 · Global-memory coalescing is open`, once.
    fn remember_opened(&mut self, before: &std::collections::BTreeSet<(String, Level)>) {
        let board = self.board();
        let now = board.open_cells();
        for (topic, level) in &now {
            if board.opener(topic, *level).is_some() {
                self.progress
                    .opened
                    .entry(topic.clone())
                    .or_default()
                    .insert(*level);
            }
        }
        let opened: Vec<String> = now
            .difference(before)
            .map(|(topic, level)| {
                let name = self
                    .content
                    .topic(topic)
                    .map_or(topic.clone(), |t| t.name.clone());
                format!("{} · {name}", level.key())
            })
            .collect();
        if !opened.is_empty() {
            self.flash = Some(t!(
                self.lang,
                "app-topic-opened",
                what = opened.join(", "),
                n = opened.len()
            ));
        }
    }

    /// Whether "Practise what you missed" is on and `id` is one of its exercises.
    fn practising(&self, id: &str) -> bool {
        self.practice
            .as_ref()
            .is_some_and(|queue| queue.iter().any(|q| q == id))
    }

    /// Starts "Practise what you missed" on its first exercise, with new numbers; or says that
    /// there is nothing to practise.
    fn start_practice(&mut self) {
        let queue = practice::queue(&self.content, &self.progress);
        let Some(first) = queue.first().cloned() else {
            self.flash = Some(t!(self.lang, "app-practise-none"));
            return;
        };
        self.flash = Some(t!(self.lang, "app-practise-start", n = queue.len()));
        self.practice = Some(queue);
        let seed = self.new_seed();
        self.open_exercise(&first, Some(seed));
    }

    /// The next (or previous) exercise to practise after `id`, on new numbers; a solved one leaves
    /// the set. Past the last it starts again from the first left; when none is left, practice
    /// ends and the exercise closes.
    fn step_practice(&mut self, id: &str, by: isize) {
        let Some(queue) = self.practice.as_mut() else {
            return;
        };
        let Some(at) = queue.iter().position(|q| q == id) else {
            return;
        };
        let solved = !self.progress.of(id).missed();
        if solved {
            queue.remove(at);
        }
        if queue.is_empty() {
            self.practice = None;
            self.leave_exercise();
            self.stack.pop();
            self.flash = Some(t!(self.lang, "app-practise-done"));
            return;
        }
        let next = match (solved, by >= 0) {
            (false, true) => (at + 1) % queue.len(),
            (true, true) => at % queue.len(),
            (_, false) => at.saturating_sub(1),
        };
        let next = queue[next].clone();
        if next == id && !solved {
            return;
        }
        self.flash = Some(t!(self.lang, "app-practise-left", n = queue.len()));
        let seed = self.new_seed();
        self.leave_exercise();
        self.open_exercise(&next, Some(seed));
    }
}

/// In lab mode, why an action is refused (`None`: it is allowed).
fn closed_in_lab(action: &Action, show_me: bool, lang: Lang) -> Option<String> {
    match action {
        Action::OpenSearch => Some(t!(lang, "app-lab-no-search")),
        Action::OpenLadder(_) => Some(t!(lang, "app-lab-no-ladder")),
        Action::UnlockAll => Some(t!(lang, "app-lab-no-unlock")),
        Action::OpenExercise(_)
        | Action::OpenPractice
        | Action::Step { .. }
        | Action::Reroll(_)
        | Action::Attempt { .. }
        | Action::HintShown(_) => Some(t!(lang, "app-lab-only-steps")),
        Action::OpenTopic(_)
        | Action::OpenCard(_)
        | Action::OpenLessons
        | Action::OpenLesson(_)
        | Action::LessonPage { .. }
        | Action::LessonSolved { .. } => Some(t!(lang, "app-lab-no-topics")),
        Action::ShowMe(_) | Action::OpenExplorer(_) | Action::OpenCalculators(_) if !show_me => {
            Some(t!(lang, "app-lab-no-show-me"))
        }
        Action::SetLang(_) => Some(t!(lang, "app-lab-no-language")),
        _ => None,
    }
}

/// Why progress could not be saved, in `lang` (the system's reason as the system words it).
fn save_failure(lang: Lang, e: &crate::progress::StoreError) -> String {
    match e {
        crate::progress::StoreError::Io { path, source } => t!(
            lang,
            "app-save-failed",
            path = crate::format::printable(path),
            error = source.to_string()
        ),
        crate::progress::StoreError::Encode(why) => {
            t!(lang, "app-save-failed-encode", error = why.clone())
        }
    }
}

/// The notice about content that could not be loaded, in `lang`.
fn content_problems(lang: Lang, content: &Content, first: &impl std::fmt::Display) -> String {
    t!(
        lang,
        "app-content-problems",
        count = content.problems.len(),
        files = content.files_with_problems().join(", "),
        first = first.to_string()
    )
}

/// Whether an action moves to another screen (and so closes search or help over the current one).
fn navigates(action: &Action) -> bool {
    matches!(
        action,
        Action::Back
            | Action::Home
            | Action::OpenLadder(_)
            | Action::OpenExercise(_)
            | Action::OpenPractice
            | Action::OpenTopic(_)
            | Action::OpenLessons
            | Action::OpenLesson(_)
            | Action::OpenCard(_)
            | Action::OpenExplorer(_)
            | Action::OpenAnalyzeExamples
            | Action::AnalyzeKernel(_)
            | Action::OpenPuzzles
            | Action::OpenPuzzle(_)
            | Action::OpenCalculators(_)
            | Action::ReopenExplorer
            | Action::ReopenCalculators
            | Action::ShowMe(_)
            | Action::OpenReview
            | Action::OpenStats
            | Action::LabOpen(_)
            | Action::LabSubmit
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::FakeClock;
    use crate::engine::{Arch, WarpAccess};

    fn app(clock: Arc<FakeClock>) -> App {
        App::new(
            Content::builtin(),
            Progress::default(),
            None,
            Theme::new(false),
            clock,
            Box::new(|| 7),
        )
    }

    #[test]
    fn attempts_hints_and_steps_change_progress_in_update() {
        let clock = Arc::new(FakeClock::at_secs(1000));
        let mut app = app(clock.clone());
        app.update(Action::OpenExercise("l1-sector-size".into()));
        assert_eq!(app.progress.of("l1-sector-size").last_seed, 7);
        app.update(Action::HintShown("l1-sector-size".into()));
        clock.set_secs(1030);
        for code in "32 B".chars().map(KeyCode::Char).chain([KeyCode::Enter]) {
            if let Some(action) = app.handle_key(KeyEvent::new(code, KeyModifiers::NONE)) {
                assert!(matches!(
                    &action,
                    Action::Attempt {
                        record,
                        since: 1000,
                        ..
                    } if record.outcome == Outcome::Correct
                ));
                app.update(action);
            }
        }
        let entry = app.progress.of("l1-sector-size");
        assert_eq!(
            (entry.attempts, entry.solved, entry.hints_used),
            (1, true, 1)
        );
        assert_eq!(entry.seconds, 30);
        assert_eq!(entry.history, vec!["32 B".to_string()]);
        // Moving on books the time since the last attempt and replaces the exercise on the stack.
        let Some(next) = unlock::neighbour(&app.content, &app.board(), "l1-sector-size", 1) else {
            panic!("l1 has a second exercise")
        };
        clock.set_secs(1045);
        app.update(Action::Step {
            id: "l1-sector-size".into(),
            by: 1,
        });
        assert_eq!(
            app.progress.of("l1-sector-size").seconds,
            45,
            "30 s to answer, 15 s reading the feedback"
        );
        assert_eq!(app.stack.len(), 2);
        assert!(matches!(app.screen(), Screen::Exercise(state) if state.id() == next));
    }

    #[test]
    fn show_me_opens_the_explorer_on_the_exercises_access() {
        let mut app = app(Arc::new(FakeClock::at_secs(0)));
        app.update(Action::OpenSearch);
        let access = WarpAccess::affine(8, 3, 1);
        app.update(Action::ShowMe(ShowMe::Shared {
            arch: Arch::default_arch(),
            access: access.clone(),
        }));
        assert!(app.overlay.is_none(), "opening a screen closes search");
        let Screen::Explorer(state) = app.screen() else {
            panic!("{:?}", app.screen())
        };
        assert_eq!(state.space(), Space::Shared);
        assert_eq!(state.access(), access);
    }

    #[test]
    fn global_keys_yield_to_a_screen_that_is_typing() {
        let mut app = app(Arc::new(FakeClock::at_secs(0)));
        app.update(Action::OpenExercise("l1-sector-size".into()));
        let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(app.handle_key(q), None, "q is typed into the answer");
        let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(app.handle_key(esc), Some(Action::Back));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(app.handle_key(ctrl_c), Some(Action::Quit));
    }
}
