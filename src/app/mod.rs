//! The application: the screen stack, the learner's progress, and [`App::update`], the one place
//! where anything outside a screen changes.
//!
//! Data flows one way: key → [`App::handle_key`] (global keys, else the top screen's
//! [`Component::handle_key`]) → [`Action`] → [`App::update`] → state → [`view::render`].

pub mod view;

use crate::content::Content;
use crate::content::schema::Level;
use crate::ladder::{self, Outcome, ShowMe, unlock};
use crate::progress::{HISTORY, Progress, Store};
pub use crate::ui::Action;
use crate::ui::{
    Component, Ctx, ExplorerSetup, Space, Tab, Theme, calculators, card, exercise, explorer, home,
    ladder as ladder_ui, search, topic,
};
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::time::{SystemTime, UNIX_EPOCH};

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
    /// A topic with its analogy, exercises and cards.
    Topic(topic::State),
    /// One flashcard.
    Card(card::State),
    /// The access-pattern explorer.
    Explorer(Box<explorer::State>),
    /// Occupancy, tiling and roofline calculators.
    Calculators(Box<calculators::State>),
}

impl Screen {
    /// The screen as a component.
    pub fn component(&self) -> &dyn Component {
        match self {
            Screen::Home(state) => state,
            Screen::Ladder(state) => state,
            Screen::Exercise(state) => state.as_ref(),
            Screen::Topic(state) => state,
            Screen::Card(state) => state,
            Screen::Explorer(state) => state.as_ref(),
            Screen::Calculators(state) => state.as_ref(),
        }
    }

    /// The screen as a component that can change.
    pub fn component_mut(&mut self) -> &mut dyn Component {
        match self {
            Screen::Home(state) => state,
            Screen::Ladder(state) => state,
            Screen::Exercise(state) => state.as_mut(),
            Screen::Topic(state) => state,
            Screen::Card(state) => state,
            Screen::Explorer(state) => state.as_mut(),
            Screen::Calculators(state) => state.as_mut(),
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
    /// Navigation stack; the last is shown.
    pub stack: Vec<Screen>,
    /// Drawn over the screen.
    pub overlay: Option<Overlay>,
    /// Set when the learner quits.
    pub quit: bool,
    clock: Box<dyn Fn() -> u64>,
    seeds: Box<dyn FnMut() -> u64>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("stack", &self.stack)
            .field("overlay", &self.overlay)
            .finish_non_exhaustive()
    }
}

/// Seconds since the Unix epoch (the real clock).
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Home, when the stack is empty (it never is: `Back` on Home quits instead of popping).
static HOME: Screen = Screen::Home(home::State { selected: 0 });

impl App {
    /// An app on Home. `clock` gives Unix seconds; `seeds` gives the seed of each new variant.
    pub fn new(
        content: Content,
        progress: Progress,
        store: Option<Store>,
        theme: Theme,
        clock: Box<dyn Fn() -> u64>,
        seeds: Box<dyn FnMut() -> u64>,
    ) -> Self {
        let mut notices = Vec::new();
        if let Some(first) = content.problems.first() {
            notices.push(format!(
                "{} content problem(s) in {} — those items were skipped. First: {first}. \
                 Run `warpdrill content check` for all of them.",
                content.problems.len(),
                content.files_with_problems().join(", ")
            ));
        }
        App {
            content,
            progress,
            store,
            notices,
            theme,
            stack: vec![Screen::Home(home::State::default())],
            overlay: None,
            quit: false,
            clock,
            seeds,
        }
    }

    /// The screen shown.
    pub fn screen(&self) -> &Screen {
        self.stack.last().unwrap_or(&HOME)
    }

    /// Now, in Unix seconds.
    pub fn now(&self) -> u64 {
        (self.clock)()
    }

    /// What the screens may read.
    pub fn ctx(&self) -> Ctx<'_> {
        Ctx {
            content: &self.content,
            progress: &self.progress,
            notices: &self.notices,
            theme: self.theme,
            now: self.now(),
        }
    }

    /// Saves progress; a failure becomes a notice, never a crash.
    pub fn save(&mut self) {
        if let Some(store) = &self.store
            && let Err(e) = store.save(&self.progress)
        {
            let message =
                format!("{e} — your progress stays in memory until the next save succeeds.");
            if !self.notices.contains(&message) {
                self.notices.push(message);
            }
        }
    }

    /// Whether a level is open (see [`unlock::level_open`]).
    pub fn level_open(&self, level: Level) -> bool {
        unlock::level_open(&self.content, &self.progress, level)
    }

    /// Turns a terminal event into an action (key releases are ignored).
    pub fn handle_event(&mut self, event: &Event) -> Option<Action> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.handle_key(*key),
            _ => None,
        }
    }

    /// Turns a key into an action: global keys first, then the overlay's or screen's own. The
    /// overlay or screen may change its own state on the way; nothing else changes here.
    pub fn handle_key(&mut self, key: KeyEvent) -> Option<Action> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return Some(Action::Quit);
        }
        if ctrl && key.code == KeyCode::Char('p') {
            return Some(Action::OpenSearch);
        }
        if key.code == KeyCode::F(1) {
            return Some(Action::ToggleHelp);
        }
        let ctx = Ctx {
            content: &self.content,
            progress: &self.progress,
            notices: &self.notices,
            theme: self.theme,
            now: (self.clock)(),
        };
        match &mut self.overlay {
            Some(Overlay::Help) => {
                return match key.code {
                    KeyCode::Char('q') | KeyCode::Esc | KeyCode::Char('?') | KeyCode::Enter => {
                        Some(Action::CloseOverlay)
                    }
                    _ => None,
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
        if screen.captures(&key) {
            return screen.handle_key(key, &ctx);
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => Some(Action::Back),
            KeyCode::Char('?') => Some(Action::ToggleHelp),
            KeyCode::Char('/') => Some(Action::OpenSearch),
            KeyCode::Char('g') => Some(Action::Home),
            _ => screen.handle_key(key, &ctx),
        }
    }

    /// Carries out an action: the only place where progress, the stack and saving change.
    pub fn update(&mut self, action: Action) {
        if navigates(&action) {
            self.overlay = None;
        }
        match action {
            Action::Quit => self.quit = true,
            Action::Back => {
                self.leave_exercise();
                if self.stack.len() > 1 {
                    self.stack.pop();
                } else {
                    self.quit = true;
                }
            }
            Action::Home => {
                self.leave_exercise();
                self.stack.truncate(1);
            }
            Action::OpenLadder(level) => {
                let level =
                    level.unwrap_or_else(|| unlock::current_level(&self.content, &self.progress));
                self.stack
                    .push(Screen::Ladder(ladder_ui::State::new(level)));
            }
            Action::OpenExercise(id) => self.open_exercise(&id, None),
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
            Action::OpenCalculators(tab) => self
                .stack
                .push(Screen::Calculators(Box::new(calculators::State::new(tab)))),
            Action::ShowMe(target) => {
                self.leave_exercise();
                self.show_me(&target);
            }
            Action::OpenSearch => {
                self.overlay = Some(Overlay::Search(search::State::new(&self.content)));
            }
            Action::ToggleHelp => {
                self.overlay = match self.overlay {
                    Some(Overlay::Help) => None,
                    _ => Some(Overlay::Help),
                }
            }
            Action::CloseOverlay => self.overlay = None,
            Action::UnlockAll => {
                self.progress.unlock_all = true;
                self.save();
            }
            Action::Attempt {
                id,
                answer,
                outcome,
                since,
                revealed,
            } => {
                let solved_before = self.progress.of(&id).solved;
                self.record_attempt(&id, &answer, outcome, since);
                if revealed && outcome == Outcome::Correct && !solved_before {
                    // Right only after the answer was shown: seen, not solved until answered
                    // right on new numbers.
                    let entry = self.progress.entry(&id);
                    entry.solved = false;
                    entry.seen = true;
                    self.save();
                }
            }
            Action::HintShown(id) => {
                self.progress.entry(&id).hints_used += 1;
                self.save();
            }
            Action::Reroll(id) => {
                let seed = self.new_seed();
                self.open_exercise(&id, Some(seed));
            }
            Action::Step { id, by } => {
                if let Some(next) = unlock::neighbour(&self.content, &self.progress, &id, by) {
                    self.leave_exercise();
                    self.open_exercise(&next, None);
                }
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

    /// Books the time spent on the exercise shown, and saves.
    fn leave_exercise(&mut self) {
        let now = self.now();
        if let Some(Screen::Exercise(state)) = self.stack.last_mut() {
            let spent = now.saturating_sub(state.clock_start);
            state.clock_start = now;
            let id = state.id.clone();
            let entry = self.progress.entry(&id);
            entry.seconds = entry.seconds.saturating_add(spent);
            self.save();
        }
    }

    /// Records a graded answer; `since` is when the time now booked began.
    pub fn record_attempt(&mut self, id: &str, answer: &str, outcome: Outcome, since: u64) {
        let now = self.now();
        let entry = self.progress.entry(id);
        entry.attempts = entry.attempts.saturating_add(1);
        if outcome == Outcome::Correct {
            entry.solved = true;
        }
        entry.seconds = entry.seconds.saturating_add(now.saturating_sub(since));
        entry.last_seen = now;
        if !answer.trim().is_empty() {
            entry.history.push(answer.to_string());
            let excess = entry.history.len().saturating_sub(HISTORY);
            entry.history.drain(..excess);
        }
        self.save();
    }
}

/// Whether an action moves to another screen (and so closes search or help over the current one).
fn navigates(action: &Action) -> bool {
    matches!(
        action,
        Action::Back
            | Action::Home
            | Action::OpenLadder(_)
            | Action::OpenExercise(_)
            | Action::OpenTopic(_)
            | Action::OpenCard(_)
            | Action::OpenExplorer(_)
            | Action::OpenCalculators(_)
            | Action::ShowMe(_)
    )
}
