//! Lessons: the list of them (Home → Learn), and one lesson page by page — prose whose numbers the
//! engine computes from the controls the learner steers, the live diagram of those numbers inside
//! the page, a faded example graded like any exercise, and the hand-off to the topic's ladder.
//!
//! ```text
//! ┌ Lesson · Coalescing: neighbouring threads, neighbouring bytes ──────── 2/5 ┐
//! │ Worked example: the stride                                                  │
//! │ Lane i reads element base + i × 2 of an array of 4-byte elements, …         │
//! │ ◀ stride (elements) 2 ▶ · element size (bytes) 4                            │
//! │ ┌ Warp → sectors · sm_90 ─────────────────────────────────────────────────┐ │
//! │ │ lane  A A A A B B B B …                                                 │ │
//! └─────────────────────────────────────────────────────────────────────────────┘
//! ```

use super::exercise::{self, State as ExerciseState};
use super::scroll::{self, Scroll};
use super::{Action, Component, Ctx, KeyHint};
use super::{Theme, block, rich};
use crate::content::Content;
use crate::content::schema::{Lesson, LessonStep};
use crate::engine;
use crate::i18n::Lang;
use crate::ladder::lesson::{control_len, control_value, page, starts};
use crate::ladder::variant::{ParamValue, plain};
use crate::ladder::{ShowMe, Standing, generate};
use crate::progress::Progress;
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

// ---- The list of lessons ----

/// The lessons list: one row per lesson, in topic order, marked read or where the learner left it.
#[derive(Debug, Clone, Default)]
pub struct List {
    selected: usize,
}

impl List {
    /// The list with its first lesson selected, or the first one not read yet.
    pub fn new(content: &Content, progress: &Progress) -> Self {
        let selected = content
            .lessons
            .iter()
            .position(|l| !progress.lesson_read(&l.id))
            .unwrap_or(0);
        List { selected }
    }

    /// The lesson selected.
    pub fn selected(&self) -> usize {
        self.selected
    }
}

/// Keys of the lessons list.
pub fn list_keys(lang: Lang) -> Vec<KeyHint> {
    vec![
        KeyHint::new("↑↓/jk", t!(lang, "common-key-select")),
        KeyHint::new("Enter", t!(lang, "common-key-open")),
        KeyHint::new("q", t!(lang, "common-key-back")),
        KeyHint::new("?", t!(lang, "common-key-help")),
    ]
}

/// How far the learner is in a lesson, as the list and Home say it.
pub fn standing(lesson: &Lesson, progress: &Progress, lang: Lang) -> String {
    match progress.lessons.get(&lesson.id) {
        Some(p) if p.read => t!(lang, "lesson-read"),
        Some(p) => t!(
            lang,
            "lesson-at-page",
            page = (p.page + 1).min(lesson.steps.len()).to_string(),
            pages = lesson.steps.len().to_string()
        ),
        None => t!(lang, "lesson-new", pages = lesson.steps.len().to_string()),
    }
}

impl Component for List {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let len = ctx.content.lessons.len();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(len.saturating_sub(1))
            }
            KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') => {
                return ctx
                    .content
                    .lessons
                    .get(self.selected)
                    .map(|l| Action::OpenLesson(l.id.clone()));
            }
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        let theme = ctx.theme;
        let outer = block(&t!(ctx.lang, "lesson-list-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let mut lines = vec![
            Line::styled(t!(ctx.lang, "lesson-list-intro"), theme.dim()),
            Line::from(""),
        ];
        if ctx.content.lessons.is_empty() {
            lines.push(Line::from(t!(ctx.lang, "lesson-list-none")));
        }
        for (i, lesson) in ctx.content.lessons.iter().enumerate() {
            let read = ctx.progress.lesson_read(&lesson.id);
            let chosen = i == self.selected;
            let topic = ctx
                .content
                .topic(&lesson.topic)
                .map_or(lesson.topic.clone(), |t| t.name.clone());
            lines.push(Line::from(vec![
                Span::styled(if chosen { "▸ " } else { "  " }, theme.key()),
                Span::styled(if read { "✓ " } else { "  " }, theme.good()),
                Span::styled(
                    topic,
                    if chosen {
                        theme.selected()
                    } else {
                        theme.title()
                    },
                ),
                Span::styled(
                    format!(" · {}", standing(lesson, ctx.progress, ctx.lang)),
                    theme.dim(),
                ),
            ]));
            lines.push(Line::styled(format!("      {}", lesson.title), theme.dim()));
        }
        super::render_wrapped(lines, false, inner, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        list_keys(lang)
    }
}

// ---- One lesson ----

/// A lesson being read: the page shown, where each page's controls are, the faded example's
/// attempt, and how far the text is scrolled.
#[derive(Debug, Clone)]
pub struct State {
    id: String,
    page: usize,
    /// Per page, the index of each control's value.
    chosen: Vec<Vec<usize>>,
    /// The control that ←→ change.
    selected: usize,
    scroll: Scroll,
    /// The faded example of the page shown, when it has one.
    exercise: Option<Box<ExerciseState>>,
    /// Seed of the faded example's numbers (a new one for new numbers).
    seed: u64,
    /// Pages of the lesson.
    pages: usize,
}

impl State {
    /// `lesson` opened on `page` (clamped); `seed` draws the numbers of its faded examples.
    pub fn new(lesson: &Lesson, page: usize, seed: u64, now: u64) -> Self {
        let mut state = State {
            id: lesson.id.clone(),
            page: page.min(lesson.steps.len().saturating_sub(1)),
            chosen: starts(lesson),
            selected: 0,
            scroll: Scroll::default(),
            exercise: None,
            seed,
            pages: lesson.steps.len(),
        };
        state.open_exercise(lesson, now);
        state
    }

    /// The lesson's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The page shown (0-based).
    pub fn page(&self) -> usize {
        self.page
    }

    /// The faded example on the page shown.
    pub fn exercise(&self) -> Option<&ExerciseState> {
        self.exercise.as_deref()
    }

    /// The index of each control's value on the page shown.
    pub fn controls(&self) -> &[usize] {
        self.chosen.get(self.page).map_or(&[], Vec::as_slice)
    }

    fn open_exercise(&mut self, lesson: &Lesson, now: u64) {
        self.exercise = lesson
            .steps
            .get(self.page)
            .and_then(|step| step.exercise.as_ref())
            .map(|template| {
                let variant = generate(template, self.seed);
                Box::new(ExerciseState::new(template, variant, Vec::new(), now))
            });
    }

    /// Moves to page `to` (clamped); returns the action that records it, if the page changed.
    fn go(&mut self, lesson: &Lesson, to: isize, now: u64) -> Option<Action> {
        let last = lesson.steps.len().saturating_sub(1);
        let to = to.clamp(0, last as isize) as usize;
        if to == self.page {
            return None;
        }
        self.page = to;
        self.selected = 0;
        self.scroll.reset();
        self.open_exercise(lesson, now);
        Some(Action::LessonPage {
            id: self.id.clone(),
            page: to,
            last: to == last,
        })
    }

    /// Steps the selected control of the page shown by `by` values.
    fn adjust(&mut self, step: &LessonStep, by: isize) {
        let Some(chosen) = self.chosen.get_mut(self.page) else {
            return;
        };
        let (Some(control), Some(at)) = (
            step.controls.get(self.selected),
            chosen.get_mut(self.selected),
        ) else {
            return;
        };
        let last = control_len(control).saturating_sub(1);
        *at = at.saturating_add_signed(by).min(last);
    }

    /// The action that hands the learner to the topic's exercises: the first one not solved yet
    /// in an open level, else the ladder.
    fn hand_off(&self, lesson: &Lesson, ctx: &Ctx) -> Action {
        let board = ctx.board();
        ctx.content
            .exercises
            .iter()
            .filter(|e| e.topic == lesson.topic)
            .filter(|e| crate::ladder::unlock::exercise_open(&board, e))
            .find(|e| ctx.progress.of(&e.id).status() != crate::progress::Status::Solved)
            .map_or(Action::OpenLadder(None), |e| {
                Action::OpenExercise(e.id.clone())
            })
    }

    fn on_faded(&mut self, key: KeyEvent, lesson: &Lesson, ctx: &Ctx) -> Option<Action> {
        let exercise = self.exercise.as_mut()?;
        match exercise.handle(key, ctx)? {
            Action::Attempt { record, .. } => {
                (record.standing() == Standing::Solved).then(|| Action::LessonSolved {
                    id: self.id.clone(),
                    exercise: exercise.id().to_string(),
                })
            }
            Action::Reroll(_) => {
                self.seed = self.seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
                self.open_exercise(lesson, ctx.now);
                None
            }
            Action::Step { by, .. } => self.go(lesson, self.page as isize + by, ctx.now),
            Action::HintShown(_) => None,
            other => Some(other),
        }
    }
}

/// The keys of a lesson page.
pub fn keys(state: &State, lang: Lang) -> Vec<KeyHint> {
    let controls = state.controls().len();
    let last = state.page + 1 >= state.pages;
    let mut keys = Vec::new();
    if let Some(exercise) = &state.exercise {
        keys.push(KeyHint::new("Tab", t!(lang, "lesson-key-next")));
        keys.push(KeyHint::new("Shift-Tab", t!(lang, "lesson-key-previous")));
        keys.extend(
            exercise::keys(exercise, lang)
                .into_iter()
                .filter(|k| !matches!(k.key.as_ref(), "PgDn/PgUp" | "r" | "^R" | "Enter/n")),
        );
        return keys;
    }
    if controls > 0 {
        keys.push(KeyHint::new("←→", t!(lang, "lesson-key-change")));
        if controls > 1 {
            keys.push(KeyHint::new("↑↓", t!(lang, "lesson-key-control")));
        }
    }
    if last {
        keys.push(KeyHint::new("Enter", t!(lang, "lesson-key-practise")));
    } else {
        keys.push(KeyHint::new("Enter/n", t!(lang, "lesson-key-next")));
    }
    keys.push(KeyHint::new("p", t!(lang, "lesson-key-previous")));
    if state.scroll.overflowing() {
        keys.push(scroll::key_hint(lang));
    }
    keys.push(KeyHint::new("q", t!(lang, "common-key-back")));
    keys.push(KeyHint::new("?", t!(lang, "common-key-help")));
    keys
}

impl Component for State {
    fn handle_key(&mut self, key: KeyEvent, ctx: &Ctx) -> Option<Action> {
        let lesson = ctx.content.lesson(&self.id)?;
        let here = self.page as isize;
        match key.code {
            KeyCode::Tab => return self.go(lesson, here + 1, ctx.now),
            KeyCode::BackTab => return self.go(lesson, here - 1, ctx.now),
            _ => {}
        }
        if self.exercise.is_some() {
            return self.on_faded(key, lesson, ctx);
        }
        let step = lesson.steps.get(self.page)?;
        let last = self.page + 1 >= lesson.steps.len();
        if self.scroll.key(&key, false) {
            return None;
        }
        match key.code {
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Char('-') => self.adjust(step, -1),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char('+') => self.adjust(step, 1),
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(step.controls.len().saturating_sub(1))
            }
            KeyCode::Enter if last => return Some(self.hand_off(lesson, ctx)),
            KeyCode::Enter | KeyCode::Char('n') | KeyCode::Char(' ') => {
                return self.go(lesson, here + 1, ctx.now);
            }
            KeyCode::Char('p') | KeyCode::Char('b') | KeyCode::Backspace => {
                return self.go(lesson, here - 1, ctx.now);
            }
            _ => {}
        }
        None
    }

    fn render(&self, ctx: &Ctx, area: Rect, buf: &mut Buffer) {
        render(ctx, self, area, buf);
    }

    fn keys(&self, lang: Lang) -> Vec<KeyHint> {
        keys(self, lang)
    }

    fn captures(&self, key: &KeyEvent) -> bool {
        self.exercise.as_ref().is_some_and(|e| e.captures(key))
    }

    /// A paste goes to the faded example's answer, as one edit.
    fn handle_paste(&mut self, text: &str, ctx: &Ctx) -> Option<Action> {
        let exercise = self.exercise.as_mut()?;
        exercise.handle_paste(text, ctx)
    }
}

/// The text of a page as lines: paragraphs split at line breaks, `*emphasis*` and `` `code` ``
/// styled.
fn prose(text: &str, theme: Theme) -> Vec<Line<'static>> {
    text.split('\n').map(|line| rich(line, theme)).collect()
}

/// The controls of a page on one line: `◀ stride (elements) 2 ▶ · element size (bytes) 4`, the
/// selected one marked.
fn controls_line(
    step: &LessonStep,
    chosen: &[usize],
    selected: usize,
    theme: Theme,
) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, control) in step.controls.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", theme.dim()));
        }
        let value = match control_value(control, chosen.get(i).copied().unwrap_or(0)) {
            ParamValue::Number(n) => plain(n),
            ParamValue::Text(t) => t,
        };
        if i == selected {
            spans.push(Span::styled("◀ ", theme.key()));
            spans.push(Span::styled(
                format!("{} ", control.label),
                theme.selected(),
            ));
            spans.push(Span::styled(value, theme.selected()));
            spans.push(Span::styled(" ▶", theme.key()));
        } else {
            spans.push(Span::styled(format!("{} ", control.label), theme.dim()));
            spans.push(Span::raw(value));
        }
    }
    Line::from(spans)
}

/// Draws the engine calculation of a page: lanes → sectors, lanes → banks, or the calculator.
fn diagram(show_me: &ShowMe, theme: Theme, lang: Lang, area: Rect, buf: &mut Buffer) {
    match show_me {
        ShowMe::Global { arch, access } => match engine::coalesce(access, arch.granularity) {
            Ok(c) => {
                let prefix = match c.granularity {
                    engine::Granularity::Sector => t!(lang, "explorer-warp-sectors"),
                    engine::Granularity::Line => t!(lang, "explorer-warp-lines"),
                };
                let title = super::arch_title(&prefix, arch, area.width);
                super::explorer::global_diagram(&c, theme, lang, &title, area, buf);
            }
            Err(e) => Line::styled(e.to_string(), theme.bad()).render(area, buf),
        },
        ShowMe::Shared { arch, access } => match engine::bank_conflicts(access, arch) {
            Ok(b) => super::explorer::bank_diagram(&b, theme, lang, arch, area, buf),
            Err(e) => Line::styled(e.to_string(), theme.bad()).render(area, buf),
        },
        other => {
            if let Some(state) = super::calculators::State::from_show_me(other) {
                super::calculators::render(&state, theme, lang, area, buf);
            }
        }
    }
}

/// Draws a lesson page.
pub fn render(ctx: &Ctx, state: &State, area: Rect, buf: &mut Buffer) {
    let theme = ctx.theme;
    let lang = ctx.lang;
    let Some(lesson) = ctx.content.lesson(&state.id) else {
        return;
    };
    let Some(step) = lesson.steps.get(state.page) else {
        return;
    };
    let title = super::marked_title(
        ctx,
        crate::content::i18n::ItemKind::Lesson,
        &lesson.id,
        t!(lang, "lesson-title", title = lesson.title.clone()),
    );
    let counter = format!(
        " {} ",
        t!(
            lang,
            "lesson-page-of",
            page = (state.page + 1).to_string(),
            pages = lesson.steps.len().to_string()
        )
    );
    // The title gives way to the page counter in a narrow window.
    let room = usize::from(area.width).saturating_sub(super::text_width(&counter) + 6);
    let title = super::ellipsis_words(&title, room);
    let outer = block(&title, theme).title(Line::styled(counter, theme.dim()).right_aligned());
    let inner = outer.inner(area);
    outer.render(area, buf);
    let [heading, body] = inner.layout(&Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
    ]));
    Line::styled(step.title.clone(), theme.title()).render(heading, buf);

    if let Some(exercise) = &state.exercise {
        let mut lines = prose(&step.text, theme);
        lines.retain(|l| l.width() > 0 || !step.text.is_empty());
        let lead = if step.text.trim().is_empty() {
            0
        } else {
            super::scroll::rows(&lines, body.width).min(body.height / 3)
        };
        let [lead_area, exercise_area] = body.layout(&Layout::vertical([
            Constraint::Length(lead),
            Constraint::Fill(1),
        ]));
        if lead > 0 {
            scroll::render(lines, None, &state.scroll, theme, lang, lead_area, buf);
        }
        exercise::render(ctx, exercise, exercise_area, buf);
        return;
    }

    let chosen = state.controls();
    let computed = page(&lesson.topic, step, chosen);
    let (mut lines, show_me) = match &computed {
        Ok(variant) => (prose(&variant.prompt, theme), variant.show_me.clone()),
        Err(e) => (vec![Line::styled(e.to_string(), theme.bad())], None),
    };
    let last = state.page + 1 >= lesson.steps.len();
    if last {
        lines.push(Line::from(""));
        let next = match state.hand_off(lesson, ctx) {
            Action::OpenExercise(id) => ctx.content.exercise(&id).map(|e| {
                t!(
                    lang,
                    "lesson-practise-exercise",
                    key = super::KEY_MARK,
                    level = e.level.key(),
                    title = e.title.clone()
                )
            }),
            _ => None,
        }
        .unwrap_or_else(|| t!(lang, "lesson-practise-ladder", key = super::KEY_MARK));
        lines.push(super::keyed_line(&next, "Enter", theme));
    }
    if step.controls.is_empty() {
        scroll::render(lines, None, &state.scroll, theme, lang, body, buf);
        return;
    }
    let Some(show_me) = show_me else {
        // Controls without a diagram: the numbers in the text are what changes.
        let [text_area, controls_area] = body.layout(&Layout::vertical([
            Constraint::Fill(1),
            Constraint::Length(1),
        ]));
        scroll::render(lines, None, &state.scroll, theme, lang, text_area, buf);
        controls_line(step, chosen, state.selected, theme).render(controls_area, buf);
        return;
    };
    // The text takes what it needs up to about two fifths of the page; the diagram the rest.
    let wanted = scroll::rows(&lines, body.width.saturating_sub(1));
    let text_rows = wanted.min((body.height * 2 / 5).max(4));
    let [text_area, controls_area, diagram_area] = body.layout(&Layout::vertical([
        Constraint::Length(text_rows),
        Constraint::Length(1),
        Constraint::Fill(1),
    ]));
    scroll::render(lines, None, &state.scroll, theme, lang, text_area, buf);
    controls_line(step, chosen, state.selected, theme).render(controls_area, buf);
    diagram(&show_me, theme, lang, diagram_area, buf);
}
