//! The tutor of a served lab (`warpdrill lab join`): it shows only what the instructor's server
//! returns — the steps and how they stand, one step's prompt, options and hints, the verdict on an
//! answer — and sends keys' requests back. It holds no key, no seed and no secret; the time shown is
//! the server's count, run down by this machine's monotonic clock between two answers from it.
//!
//! ```text
//!  Coalescing and banks · amy · step 2/6 · 10/60 pts · 41:07 left
//! ┌ Lab steps ──────────────────────────────────────────────────────┐
//! │   1  Sectors of a strided load      L2  solved · 10 pts         │
//! │▸  2  Misaligned by one              L2  open · 0 of 3 attempts  │
//! └─────────────────────────────────────────────────────────────────┘
//! ```

use super::input::LineInput;
use super::lab::clock;
use super::words::{cut, fit};
use super::{Theme, block};
use crate::i18n::Lang;
use crate::lab::class::{AnswerView, KernelStep, Standing, StateView, StepView};
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// What the tutor asks the server for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// The lab as it stands (also: reconnect).
    State,
    /// Open step n (1-based).
    Step(usize),
    /// Answer step n.
    Answer(usize, String),
    /// The next hint of step n.
    Hint(usize),
    /// Hand the lab in.
    Submit,
    /// Leave the tutor (everything is on the server already).
    Quit,
}

/// What the server answered.
#[derive(Debug, Clone)]
pub enum Reply {
    /// The lab.
    State(StateView),
    /// A step.
    Step(StepView),
    /// An answer's verdict.
    Answer(Box<AnswerView>),
    /// Refused by the server (wrong code, closed, locked), with its message.
    Refused(String),
    /// No answer: the connection failed.
    Offline(String),
}

/// The tutor's screen.
#[derive(Debug, Clone, Default)]
pub struct Served {
    /// The lab, as last returned.
    pub state: Option<StateView>,
    /// The open step, if any.
    pub step: Option<StepView>,
    /// The answer being typed.
    pub input: LineInput,
    /// Highlighted step on the overview (0-based).
    pub selected: usize,
    /// The last message (a verdict, a refusal).
    pub message: Option<String>,
    /// The connection failed: what to say.
    pub offline: Option<String>,
    /// `s` pressed once on the overview.
    pub confirm: bool,
    /// Seconds since the state came back (monotonic), for the time shown.
    pub elapsed: u64,
    /// The call that failed, to send again once the server answers.
    pub pending: Option<Call>,
    /// Where a puzzle step's kernel file is written and read (none: the current folder).
    pub kernel_dir: Option<std::path::PathBuf>,
}

impl Served {
    /// The file a puzzle step's kernel is edited in.
    pub fn kernel_file(&self, kernel: &KernelStep) -> std::path::PathBuf {
        self.kernel_dir
            .clone()
            .unwrap_or_default()
            .join(format!("{}.cu", kernel.puzzle))
    }

    /// Writes a puzzle step's starter where the student edits it, unless a file is there; says so.
    fn write_starter(&mut self, lang: Lang, kernel: &KernelStep) {
        let path = self.kernel_file(kernel);
        if path.exists() {
            return;
        }
        let written = path
            .parent()
            .filter(|dir| !dir.as_os_str().is_empty())
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| crate::store::write_atomic(&path, kernel.starter.as_bytes()));
        self.message = Some(match written {
            Ok(()) => t!(
                lang,
                "served-kernel-wrote",
                path = path.display().to_string()
            ),
            Err(e) => t!(
                lang,
                "cli-error",
                message = format!("{}: {e}", path.display())
            ),
        });
    }

    /// The kernel file's text, to hand in (a message when it cannot be read).
    fn read_kernel(&mut self, lang: Lang, kernel: &KernelStep) -> Option<String> {
        let path = self.kernel_file(kernel);
        match crate::store::read_regular_text(&path, kernel.max_chars as u64 * 4) {
            Ok(text) if text.chars().count() <= kernel.max_chars => Some(text),
            Ok(_) => {
                self.message = Some(t!(lang, "served-kernel-too-long", max = kernel.max_chars));
                None
            }
            Err(e) => {
                self.message = Some(t!(
                    lang,
                    "puzzle-unreadable",
                    path = path.display().to_string(),
                    error = e.to_string()
                ));
                None
            }
        }
    }

    /// The time left now: the server's count less the seconds since it was given.
    pub fn time_left(&self) -> Option<u64> {
        self.state
            .as_ref()?
            .time_left
            .map(|t| t.saturating_sub(self.elapsed))
    }

    fn closed(&self) -> bool {
        self.state
            .as_ref()
            .is_some_and(|s| s.submitted.is_some() || self.time_left() == Some(0))
    }

    /// A key; returns the call to make.
    pub fn key(&mut self, lang: Lang, key: KeyEvent) -> Option<Call> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return Some(Call::Quit);
        }
        if let Some(step) = &self.step {
            let number = step.step;
            let open = step.standing == Standing::Open && !self.closed();
            return match key.code {
                KeyCode::Esc => {
                    self.step = None;
                    self.message = None;
                    Some(Call::State)
                }
                KeyCode::Char('t') if ctrl => Some(Call::Hint(number)),
                // A puzzle step hands in the kernel file as it is saved now.
                KeyCode::Enter if open && step.kernel.is_some() => {
                    let kernel = step.kernel.clone()?;
                    let source = self.read_kernel(lang, &kernel)?;
                    Some(Call::Answer(number, source))
                }
                KeyCode::Enter if open => {
                    let text = self.input.text().trim().to_string();
                    if text.is_empty() {
                        return None;
                    }
                    Some(Call::Answer(number, text))
                }
                KeyCode::Enter | KeyCode::Char('q') if !open => {
                    self.step = None;
                    self.message = None;
                    Some(Call::State)
                }
                _ if open => {
                    self.input.edit(&key);
                    None
                }
                _ => None,
            };
        }
        let confirm = std::mem::take(&mut self.confirm);
        let n = self.state.as_ref().map_or(0, |s| s.steps.len());
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(n.saturating_sub(1))
            }
            KeyCode::Enter | KeyCode::Right | KeyCode::Char('l') if n > 0 => {
                return Some(Call::Step(self.selected + 1));
            }
            KeyCode::Char('s') if self.state.as_ref().is_some_and(|s| s.submitted.is_none()) => {
                if confirm {
                    return Some(Call::Submit);
                }
                self.confirm = true;
            }
            KeyCode::Char('r') => return Some(Call::State),
            KeyCode::Char('q') | KeyCode::Esc => return Some(Call::Quit),
            _ => {}
        }
        None
    }

    /// The server's reply to `call`.
    pub fn reply(&mut self, lang: Lang, call: &Call, reply: Reply) {
        if !matches!(reply, Reply::Offline(_)) {
            self.offline = None;
            self.pending = None;
        }
        match reply {
            Reply::State(state) => {
                self.elapsed = 0;
                if self.step.is_none() {
                    self.selected = self.selected.min(state.steps.len().saturating_sub(1));
                    if matches!(call, Call::Submit) || self.state.is_none() {
                        self.selected = state.current.map_or(0, |c| c - 1);
                    }
                }
                if matches!(call, Call::Submit) {
                    self.message = Some(t!(lang, "served-handed-in"));
                }
                self.state = Some(state);
            }
            Reply::Step(step) => {
                if matches!(call, Call::Step(_)) {
                    self.input = LineInput::default();
                    self.message = None;
                    if let Some(kernel) = &step.kernel {
                        self.write_starter(lang, kernel);
                    }
                }
                self.step = Some(step);
            }
            Reply::Answer(answer) => {
                self.message = Some(match answer.outcome.as_str() {
                    "recorded" => t!(lang, "served-recorded"),
                    // A kernel's verdict is shown whole in the step; the line below says it.
                    _ if answer.step.kernel.is_some() => answer
                        .message
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                    _ => answer.message.clone(),
                });
                if answer.outcome != "unusable" {
                    self.input = LineInput::default();
                }
                self.elapsed = 0;
                let answer = *answer;
                self.step = Some(answer.step);
                self.state = Some(answer.state);
            }
            Reply::Refused(message) => self.message = Some(message),
            Reply::Offline(error) => {
                self.offline = Some(error);
                if !matches!(call, Call::State) {
                    self.pending = Some(call.clone());
                }
            }
        }
    }

    /// Draws the tutor.
    pub fn render(&self, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
        let [head, body, foot] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(2),
        ])
        .areas(area);
        Paragraph::new(self.header(lang, theme, head.width)).render(head, buf);
        match &self.step {
            Some(step) => self.render_step(lang, theme, step, body, buf),
            None => self.render_overview(lang, theme, body, buf),
        }
        let mut lines = Vec::new();
        if let Some(error) = &self.offline {
            lines.push(Line::styled(
                t!(lang, "served-offline", error = cut(error, 120)),
                theme.bad(),
            ));
        } else if let Some(message) = &self.message {
            lines.push(Line::styled(message.clone(), theme.warn()));
        } else {
            lines.push(Line::from(""));
        }
        lines.push(Line::styled(
            if self.step.as_ref().is_some_and(|s| {
                s.standing == Standing::Open && !self.closed() && s.kernel.is_some()
            }) {
                t!(lang, "served-keys-kernel")
            } else if self
                .step
                .as_ref()
                .is_some_and(|s| s.standing == Standing::Open && !self.closed())
            {
                t!(lang, "served-keys-step")
            } else if self.step.is_some() {
                t!(lang, "served-keys-done")
            } else if self.state.as_ref().is_some_and(|s| s.submitted.is_some()) {
                t!(lang, "served-keys-handed-in")
            } else {
                t!(lang, "served-keys-overview")
            },
            theme.dim(),
        ));
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(foot, buf);
    }

    fn header(&self, lang: Lang, theme: Theme, width: u16) -> Line<'static> {
        let Some(state) = &self.state else {
            return Line::styled(format!(" {}", t!(lang, "served-connecting")), theme.dim());
        };
        let n = state.steps.len();
        let step = self
            .step
            .as_ref()
            .map(|s| s.step)
            .or(state.current)
            .unwrap_or(n);
        let mut parts = vec![
            state.student.clone(),
            t!(lang, "lab-header-step", step = step, n = n),
        ];
        match state.points {
            Some(points) => parts.push(t!(
                lang,
                "lab-header-points",
                points = points,
                max = state.max
            )),
            None => {
                let answered = state.steps.iter().filter(|s| s.attempts > 0).count();
                parts.push(t!(lang, "lab-header-answered", answered = answered, n = n));
            }
        }
        let (tail, style) = if state.submitted.is_some() {
            (t!(lang, "lab-header-handed-in"), theme.good())
        } else {
            let late = state
                .late_in
                .is_some_and(|t| t.saturating_sub(self.elapsed) == 0);
            match self.time_left() {
                Some(0) => (t!(lang, "lab-header-time-up"), theme.bad()),
                Some(left) if late => (
                    t!(lang, "lab-header-late", time = clock(left)),
                    theme.warn(),
                ),
                Some(left) => (
                    t!(lang, "lab-header-time-left", time = clock(left)),
                    if left < 300 {
                        theme.warn()
                    } else {
                        theme.dim()
                    },
                ),
                None => (String::new(), theme.dim()),
            }
        };
        let rest = parts.join(" · ");
        let used = super::words::columns(&rest) + super::words::columns(&tail) + 8;
        let title = cut(&state.title, usize::from(width).saturating_sub(used).max(6));
        let mut spans = vec![Span::styled(format!(" {title} · {rest}"), theme.title())];
        if !tail.is_empty() {
            spans.push(Span::styled(format!(" · {tail}"), style));
        }
        Line::from(spans)
    }

    fn standing_text(lang: Lang, state: &StateView, index: usize) -> String {
        let step = &state.steps[index];
        let attempts = t!(lang, "lab-attempts", n = step.attempts);
        match step.standing {
            Standing::Solved => t!(
                lang,
                "lab-standing-solved",
                points = step.points.unwrap_or(0),
                attempts = attempts
            ),
            Standing::NotSolved if step.attempts == 0 => t!(lang, "lab-standing-not-answered"),
            Standing::NotSolved => t!(lang, "lab-standing-not-solved", attempts = attempts),
            Standing::Answered => t!(lang, "lab-standing-answered"),
            Standing::Open if state.exam => t!(lang, "lab-standing-open"),
            Standing::Open => super::lab::worth(
                lang,
                step.worth,
                t!(
                    lang,
                    "lab-standing-open-attempts",
                    used = step.attempts,
                    allowed = state.attempts_allowed
                ),
            ),
            Standing::Locked => {
                super::lab::worth(lang, step.worth, t!(lang, "lab-standing-locked"))
            }
        }
    }

    fn render_overview(&self, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
        let outer = block(&t!(lang, "lab-steps-title"), theme);
        let inner = outer.inner(area);
        outer.render(area, buf);
        let Some(state) = &self.state else {
            return;
        };
        let width = usize::from(inner.width);
        let texts: Vec<String> = (0..state.steps.len())
            .map(|i| Self::standing_text(lang, state, i))
            .collect();
        let status_width = texts
            .iter()
            .map(|t| super::words::columns(t))
            .max()
            .unwrap_or(0);
        let mut lines = Vec::new();
        for (i, step) in state.steps.iter().enumerate() {
            let style = match step.standing {
                Standing::Solved => theme.good(),
                Standing::NotSolved => theme.bad(),
                Standing::Locked => theme.dim(),
                _ => theme.key(),
            };
            let mark = if i == self.selected { "▸" } else { " " };
            let head = format!("{mark}{:>2}  ", step.step);
            let room = width.saturating_sub(super::words::columns(&head) + status_width + 6);
            let mut line = Line::from(vec![
                Span::raw(head),
                Span::raw(fit(&step.title, room)),
                Span::styled(format!(" {:<3} ", step.level), theme.dim()),
                Span::styled(texts[i].clone(), style),
            ]);
            if i == self.selected {
                line = line.style(theme.selected());
            }
            lines.push(line);
        }
        lines.push(Line::from(""));
        let hints = match (state.hints, state.hint_cost) {
            (false, _) => t!(lang, "lab-rules-no-hints"),
            (true, Some(n)) => t!(lang, "lab-rules-hint-cost", n = n),
            (true, None) => t!(lang, "lab-rules-hints-free"),
        };
        let order = if state.locked_order {
            t!(lang, "lab-rules-in-order")
        } else {
            t!(lang, "lab-rules-any-order")
        };
        let points: Vec<String> = state
            .points_per_attempt
            .iter()
            .map(ToString::to_string)
            .collect();
        let mut rules = t!(
            lang,
            "lab-rules",
            points = points.join("/"),
            attempts = state.attempts_allowed,
            hints = hints,
            order = order
        );
        if state.exam {
            rules = format!("{rules} · {}", t!(lang, "lab-rules-exam"));
        }
        if state.steps.iter().any(|s| s.worth.is_some()) {
            rules = format!("{rules} · {}", t!(lang, "lab-rules-weighted"));
        }
        lines.push(Line::styled(rules, theme.dim()));
        lines.push(Line::styled(
            t!(lang, "served-graded-by-server"),
            theme.dim(),
        ));
        if let Some(receipt) = &state.receipt {
            let text = if state.timed_out {
                t!(lang, "served-time-up-handed-in")
            } else {
                t!(lang, "lab-handed-in-receipt")
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{text} "), theme.good()),
                Span::styled(receipt.clone(), theme.title()),
            ]));
        } else if self.confirm {
            lines.push(Line::styled(t!(lang, "lab-confirm-hand-in"), theme.warn()));
        } else if self.time_left() == Some(0) {
            lines.push(Line::styled(t!(lang, "served-time-up"), theme.warn()));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }

    fn render_step(&self, lang: Lang, theme: Theme, step: &StepView, area: Rect, buf: &mut Buffer) {
        let outer = block(
            &t!(
                lang,
                "served-step-title",
                step = step.step,
                title = step.title.clone()
            ),
            theme,
        );
        let inner = outer.inner(area);
        outer.render(area, buf);
        let mut lines: Vec<Line> = crate::format::printable(&step.prompt)
            .lines()
            .map(|l| Line::from(l.to_string()))
            .collect();
        if !step.options.is_empty() {
            lines.push(Line::from(""));
            for option in &step.options {
                lines.push(Line::from(format!(
                    "  {}",
                    crate::format::printable(option)
                )));
            }
        }
        for (i, hint) in step.hints.iter().enumerate() {
            lines.push(Line::from(""));
            lines.push(Line::styled(
                format!(
                    "{} {}",
                    t!(lang, "exercise-hint", n = i + 1),
                    crate::format::printable(hint)
                ),
                theme.dim(),
            ));
        }
        lines.push(Line::from(""));
        for answer in &step.answers {
            lines.push(Line::styled(
                t!(
                    lang,
                    "served-answered",
                    answer = crate::format::printable(answer).into_owned()
                ),
                theme.dim(),
            ));
        }
        if let Some(verdict) = &step.verdict {
            let style = match step.standing {
                Standing::Solved => theme.good(),
                Standing::NotSolved => theme.bad(),
                _ => theme.warn(),
            };
            for line in verdict.lines() {
                lines.push(Line::styled(
                    crate::format::printable(line).into_owned(),
                    style,
                ));
            }
        }
        if let Some(why) = &step.why {
            for line in crate::format::printable(why).lines() {
                lines.push(Line::from(line.to_string()));
            }
        }
        let open = step.standing == Standing::Open && !self.closed();
        if let Some(kernel) = step.kernel.as_ref().filter(|_| open) {
            lines.push(Line::from(""));
            lines.push(Line::styled(
                t!(
                    lang,
                    "served-kernel-file",
                    path =
                        crate::format::printable(&self.kernel_file(kernel).display().to_string())
                            .into_owned(),
                    id = kernel.puzzle.clone()
                ),
                theme.key(),
            ));
        } else if open {
            lines.push(Line::from(""));
            let (text, _) = self
                .input
                .window(usize::from(inner.width).saturating_sub(12));
            lines.push(Line::from(vec![
                Span::styled(
                    format!("{} ", t!(lang, "served-answer-prompt")),
                    theme.key(),
                ),
                Span::raw(text),
                Span::styled("▏", theme.key()),
            ]));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::class::StepSummary;

    fn state() -> StateView {
        StateView {
            title: "T".into(),
            student: "amy".into(),
            steps: vec![StepSummary {
                step: 1,
                title: "One".into(),
                level: "L1".into(),
                standing: Standing::Open,
                points: Some(0),
                attempts: 0,
                worth: None,
            }],
            points: Some(0),
            max: 10,
            points_per_attempt: vec![10],
            attempts_allowed: 3,
            hint_cost: None,
            hints: true,
            exam: false,
            locked_order: true,
            time_left: Some(100),
            late_in: None,
            submitted: None,
            timed_out: false,
            receipt: None,
            current: Some(1),
        }
    }

    fn step() -> StepView {
        StepView {
            step: 1,
            title: "One".into(),
            prompt: "How many?".into(),
            options: Vec::new(),
            answer_kind: "number".into(),
            hints: Vec::new(),
            more_hints: true,
            standing: Standing::Open,
            attempts: 0,
            answers: Vec::new(),
            verdict: None,
            why: None,
            kernel: None,
        }
    }

    fn press(served: &mut Served, code: KeyCode) -> Option<Call> {
        served.key(Lang::En, KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn letters_on_a_step_are_typed_and_enter_sends_them() {
        let mut served = Served::default();
        served.reply(Lang::En, &Call::State, Reply::State(state()));
        served.reply(Lang::En, &Call::Step(1), Reply::Step(step()));
        for c in "g s q".chars() {
            assert_eq!(press(&mut served, KeyCode::Char(c)), None);
        }
        assert_eq!(
            press(&mut served, KeyCode::Enter),
            Some(Call::Answer(1, "g s q".into()))
        );
    }

    #[test]
    fn a_lost_connection_keeps_the_answer_to_send_again() {
        let mut served = Served::default();
        served.reply(Lang::En, &Call::State, Reply::State(state()));
        served.reply(Lang::En, &Call::Step(1), Reply::Step(step()));
        served.input.set("5");
        let call = Call::Answer(1, "5".into());
        served.reply(Lang::En, &call, Reply::Offline("refused".into()));
        assert_eq!(served.pending, Some(call));
        assert_eq!(served.input.text(), "5", "the typed answer stays");
    }

    #[test]
    fn the_time_shown_runs_down_from_the_servers_count() {
        let mut served = Served::default();
        served.reply(Lang::En, &Call::State, Reply::State(state()));
        served.elapsed = 40;
        assert_eq!(served.time_left(), Some(60));
        served.elapsed = 400;
        assert_eq!(served.time_left(), Some(0));
    }

    fn drawn(served: &Served) -> String {
        let area = Rect::new(0, 0, 100, 24);
        let mut buf = Buffer::empty(area);
        served.render(Lang::En, Theme::new(false), area, &mut buf);
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn after_hand_in_the_footer_no_longer_offers_it_and_weighted_steps_are_said() {
        let mut served = Served::default();
        let mut open = state();
        open.steps[0].worth = Some(20);
        served.reply(Lang::En, &Call::State, Reply::State(open.clone()));
        let screen = drawn(&served);
        assert!(screen.contains("s hand in"), "{screen}");
        assert!(screen.contains("worth 20 pts"), "{screen}");
        assert!(screen.contains("scale these points"), "{screen}");
        let mut done = open;
        done.submitted = Some(100);
        served.reply(Lang::En, &Call::State, Reply::State(done));
        let screen = drawn(&served);
        assert!(!screen.contains("s hand in"), "{screen}");
        assert!(screen.contains("handed in"), "{screen}");
    }
}
