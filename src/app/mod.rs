//! The application: one state, an `Action` per intent, `update` to change state, and an event loop
//! generic over the ratatui `Backend` (so tests drive the whole app against `TestBackend`).
//!
//! Data flows one way: key → [`App::handle_key`] → [`Action`] → [`App::update`] → state → `ui::draw`.

pub mod input;

use crate::content::Content;
use crate::content::schema::Level;
use crate::ladder::{self, Outcome};
use crate::progress::{Progress, Status, Store};
use crate::ui::{
    self, Theme, calculators, card, exercise, explorer, home, ladder as ladder_ui, search, topic,
};
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::time::{SystemTime, UNIX_EPOCH};

/// Exercises of a level to solve before the next level opens.
pub const UNLOCK_AFTER: usize = 3;

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

/// Something drawn over the current screen.
#[derive(Debug, Clone)]
pub enum Overlay {
    /// The fuzzy search palette.
    Search(search::State),
    /// The keys of the current screen.
    Help,
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
    /// Open the ladder, on a level.
    OpenLadder(Option<Level>),
    /// Open an exercise.
    OpenExercise(String),
    /// Open a topic.
    OpenTopic(String),
    /// Open a card.
    OpenCard(String),
    /// Open the explorer with these parameters.
    OpenExplorer(Box<explorer::State>),
    /// Open the calculators with these inputs.
    OpenCalculators(Box<calculators::State>),
    /// Open the search palette.
    OpenSearch,
    /// Show or hide help.
    ToggleHelp,
    /// Close the overlay.
    CloseOverlay,
    /// Open every level of the ladder.
    UnlockAll,
    /// A key for the current screen or overlay to interpret.
    Key(KeyEvent),
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
        self.stack
            .last()
            .unwrap_or(&Screen::Home(home::State { selected: 0 }))
    }

    /// Now, in Unix seconds.
    pub fn now(&self) -> u64 {
        (self.clock)()
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

    /// Whether a level is open: L1 always; later levels once [`UNLOCK_AFTER`] exercises of the level
    /// before are solved (or all of them, if it has fewer), or when the learner unlocked everything.
    pub fn level_open(&self, level: Level) -> bool {
        if self.progress.unlock_all || level == Level::L1 {
            return true;
        }
        let previous = Level::ALL[level.index() - 1];
        let (solved, total) = self.level_counts(previous);
        solved >= UNLOCK_AFTER.min(total)
    }

    /// `(solved, total)` exercises of a level.
    pub fn level_counts(&self, level: Level) -> (usize, usize) {
        let ids: Vec<&str> = self.content.level(level).map(|e| e.id.as_str()).collect();
        let solved = ids
            .iter()
            .filter(|id| self.progress.of(id).status() == Status::Solved)
            .count();
        (solved, ids.len())
    }

    /// Turns a terminal event into an action.
    pub fn handle_event(&self, event: &Event) -> Option<Action> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.handle_key(*key),
            _ => None,
        }
    }

    /// Turns a key into an action: global keys first, then the overlay's or screen's own.
    pub fn handle_key(&self, key: KeyEvent) -> Option<Action> {
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
        match &self.overlay {
            Some(Overlay::Help) => {
                return Some(match key.code {
                    KeyCode::Char('q') | KeyCode::Esc | KeyCode::Char('?') | KeyCode::Enter => {
                        Action::CloseOverlay
                    }
                    _ => Action::Key(key),
                });
            }
            Some(Overlay::Search(_)) => {
                return Some(match key.code {
                    KeyCode::Esc => Action::CloseOverlay,
                    _ => Action::Key(key),
                });
            }
            None => {}
        }
        let typing = match self.screen() {
            Screen::Exercise(state) => state.typing(),
            Screen::Explorer(state) => state.typing() || state.presets.is_some(),
            Screen::Calculators(state) => state.typing(),
            _ => false,
        };
        if typing {
            let in_exercise = self.screen_exercise();
            return match key.code {
                KeyCode::Esc if in_exercise.is_some() => Some(Action::Back),
                KeyCode::Char('?')
                    if in_exercise.is_some_and(|state| !exercise::question_mark_is_text(state)) =>
                {
                    Some(Action::ToggleHelp)
                }
                _ => Some(Action::Key(key)),
            };
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => Some(Action::Back),
            KeyCode::Char('?') => Some(Action::ToggleHelp),
            KeyCode::Char('/') => Some(Action::OpenSearch),
            KeyCode::Char('g') => Some(Action::Home),
            _ => Some(Action::Key(key)),
        }
    }

    fn screen_exercise(&self) -> Option<&exercise::State> {
        match self.screen() {
            Screen::Exercise(state) => Some(state),
            _ => None,
        }
    }

    /// Applies an action.
    pub fn update(&mut self, action: Action) {
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
                self.overlay = None;
            }
            Action::OpenLadder(level) => {
                let level = level.unwrap_or_else(|| self.current_level());
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
            Action::OpenExplorer(state) => self.stack.push(Screen::Explorer(state)),
            Action::OpenCalculators(state) => self.stack.push(Screen::Calculators(state)),
            Action::OpenSearch => {
                let state = search::State::new(&self.content);
                self.overlay = Some(Overlay::Search(state));
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
            Action::Key(key) => self.screen_key(key),
        }
    }

    /// The first level that is open and not fully solved (where "Ladder" lands).
    pub fn current_level(&self) -> Level {
        Level::ALL
            .into_iter()
            .filter(|l| self.level_open(*l))
            .find(|l| {
                let (solved, total) = self.level_counts(*l);
                solved < total
            })
            .unwrap_or(Level::L1)
    }

    fn screen_key(&mut self, key: KeyEvent) {
        if let Some(Overlay::Search(state)) = &mut self.overlay {
            if let Some(action) = state.key(key, &self.content) {
                self.overlay = None;
                self.update(action);
            }
            return;
        }
        if let Some(Overlay::Help) = self.overlay {
            return;
        }
        let home_items = home::items(self);
        let action = match self.stack.last_mut() {
            Some(Screen::Home(state)) => state.key(key, &home_items),
            Some(Screen::Ladder(_)) => ladder_ui::key(self, key),
            Some(Screen::Exercise(_)) => {
                exercise::key(self, key);
                None
            }
            Some(Screen::Topic(state)) => state.key(key, &self.content),
            Some(Screen::Card(state)) => state.key(key, &self.content),
            Some(Screen::Explorer(state)) => {
                state.key(key);
                None
            }
            Some(Screen::Calculators(state)) => {
                state.key(key);
                None
            }
            None => None,
        };
        if let Some(action) = action {
            self.update(action);
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

    /// Books the time spent on the exercise shown.
    fn leave_exercise(&mut self) {
        let now = self.now();
        if let Some(Screen::Exercise(state)) = self.stack.last_mut() {
            let spent = now.saturating_sub(state.clock_start);
            state.clock_start = now;
            let id = state.id.clone();
            self.progress.entry(&id).seconds += spent;
            self.save();
        }
    }

    /// Records a graded answer.
    pub fn record_attempt(&mut self, id: &str, answer: &str, outcome: Outcome, clock_start: u64) {
        let now = self.now();
        let entry = self.progress.entry(id);
        entry.attempts += 1;
        if outcome == Outcome::Correct {
            entry.solved = true;
        }
        entry.seconds += now.saturating_sub(clock_start);
        entry.last_seen = now;
        if !answer.trim().is_empty() {
            entry.history.push(answer.to_string());
            let excess = entry.history.len().saturating_sub(crate::progress::HISTORY);
            entry.history.drain(..excess);
        }
        self.save();
    }

    /// The exercise after (or before) `id` in ladder order, within open levels.
    pub fn neighbour(&self, id: &str, step: isize) -> Option<String> {
        let open: Vec<&str> = self
            .content
            .exercises
            .iter()
            .filter(|e| self.level_open(e.level))
            .map(|e| e.id.as_str())
            .collect();
        let at = open.iter().position(|e| *e == id)? as isize + step;
        usize::try_from(at)
            .ok()
            .and_then(|i| open.get(i))
            .map(|s| s.to_string())
    }
}

/// Runs the app until the learner quits: draw, wait for an event, update. Generic over the backend.
pub fn run<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    mut next_event: impl FnMut() -> std::io::Result<Event>,
) -> std::io::Result<()>
where
    B::Error: Into<std::io::Error>,
{
    while !app.quit {
        terminal
            .draw(|frame| ui::draw(frame, app))
            .map_err(Into::into)?;
        let event = next_event()?;
        if let Some(action) = app.handle_event(&event) {
            app.update(action);
        }
    }
    Ok(())
}
