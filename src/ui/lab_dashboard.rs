//! The instructor's dashboard while `lab serve` runs: who is on which step with how many points and
//! how much time, how each step goes (percent correct of those who answered, attempts, the most
//! common wrong answers), and two live actions on the highlighted student: five more minutes (`+`)
//! and new numbers for the step they are on (`r`).
//!
//! ```text
//!  Coalescing trial · 3 students · http://0.0.0.0:8177 · events in class.db
//! ┌ Students ─────────────────────────────────────────────────────────┐
//! │▸ amy        step 2/3   17/30 pts   1:48 left                      │
//! │  bo         step 2/3    5/30 pts   handed in (time up)            │
//! └───────────────────────────────────────────────────────────────────┘
//! ┌ Steps ────────────────────────────────────────────────────────────┐
//! │ 1  67% correct of 3 · 5 attempts · wrong: 17 ×2, 99               │
//! └───────────────────────────────────────────────────────────────────┘
//! ```

use super::lab::clock;
use super::words::cut;
use super::{Theme, block};
use crate::i18n::Lang;
use crate::lab::class::{Grade, StepStats};
use crate::t;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// What a key on the dashboard asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Five more minutes for a student.
    ExtraTime(String, u32),
    /// New numbers for a student's step.
    Reroll(String, usize),
    /// Stop serving.
    Quit,
}

/// The dashboard's state: the last snapshot of the class and the highlighted student.
#[derive(Debug, Clone, Default)]
pub struct Dashboard {
    /// The lab's title.
    pub title: String,
    /// Where students join and where events go, for the header.
    pub place: String,
    /// One row per student, in roster order.
    pub grades: Vec<Grade>,
    /// One per step.
    pub steps: Vec<StepStats>,
    /// Highlighted student.
    pub selected: usize,
    /// The last thing done or refused.
    pub message: Option<String>,
    /// `q` pressed once: a second stops the server.
    pub confirm_quit: bool,
}

impl Dashboard {
    /// A key; the command to carry out.
    pub fn key(&mut self, key: KeyEvent, lang: Lang) -> Option<Command> {
        let quit = std::mem::take(&mut self.confirm_quit);
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Some(Command::Quit);
        }
        let student = self.grades.get(self.selected).cloned();
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected = (self.selected + 1).min(self.grades.len().saturating_sub(1))
            }
            KeyCode::Char('+') => return student.map(|g| Command::ExtraTime(g.student, 5)),
            KeyCode::Char('r') => {
                let grade = student?;
                match grade.current {
                    Some(step) if grade.submitted.is_none() => {
                        return Some(Command::Reroll(grade.student, step));
                    }
                    _ => {
                        self.message = Some(t!(lang, "dashboard-no-step", student = grade.student))
                    }
                }
            }
            KeyCode::Char('q') | KeyCode::Esc => {
                if quit {
                    return Some(Command::Quit);
                }
                self.confirm_quit = true;
            }
            _ => {}
        }
        None
    }

    /// Draws the dashboard.
    pub fn render(&self, lang: Lang, theme: Theme, area: Rect, buf: &mut Buffer) {
        let rows = u16::try_from(self.grades.len()).unwrap_or(u16::MAX);
        let [head, students, steps, foot] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Max(rows.saturating_add(2)),
            Constraint::Min(3),
            Constraint::Length(2),
        ])
        .areas(area);
        Paragraph::new(Line::styled(
            cut(
                &format!(
                    " {} · {} · {}",
                    self.title,
                    t!(lang, "dashboard-students", n = self.grades.len()),
                    self.place
                ),
                usize::from(head.width),
            ),
            theme.title(),
        ))
        .render(head, buf);
        let outer = block(&t!(lang, "dashboard-students-title"), theme);
        let inner = outer.inner(students);
        outer.render(students, buf);
        // Keep the highlighted student in view.
        let height = usize::from(inner.height).max(1);
        let first = self.selected.saturating_sub(height - 1);
        let lines: Vec<Line> = self
            .grades
            .iter()
            .enumerate()
            .skip(first)
            .take(height)
            .map(|(i, g)| {
                let n = g.steps.len();
                let state = match (g.submitted, g.timed_out, g.started, g.time_left) {
                    (Some(_), true, _, _) => t!(lang, "dashboard-handed-in-time-up"),
                    (Some(_), false, _, _) => t!(lang, "lab-header-handed-in"),
                    (None, _, None, _) => t!(lang, "dashboard-not-joined"),
                    (None, _, Some(_), Some(left)) => {
                        t!(lang, "lab-header-time-left", time = clock(left))
                    }
                    (None, _, Some(_), None) => String::new(),
                };
                let step = g.current.map_or_else(
                    || t!(lang, "dashboard-all-done"),
                    |s| t!(lang, "lab-header-step", step = s, n = n),
                );
                let mark = if i == self.selected { "▸" } else { " " };
                let text = format!(
                    "{mark} {:<14} {:<12} {:>12}   {state}",
                    cut(&g.student, 14),
                    step,
                    t!(lang, "lab-header-points", points = g.total, max = g.max),
                );
                let line = Line::from(text);
                if i == self.selected {
                    line.style(theme.selected())
                } else {
                    line
                }
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
        let outer = block(&t!(lang, "dashboard-steps-title"), theme);
        let inner = outer.inner(steps);
        outer.render(steps, buf);
        let lines: Vec<Line> = self
            .steps
            .iter()
            .map(|s| {
                let percent = match s.percent_correct() {
                    Some(p) => t!(
                        lang,
                        "dashboard-percent",
                        percent = format!("{p:.0}"),
                        n = s.answered
                    ),
                    None => t!(lang, "dashboard-no-answers"),
                };
                let mut text = format!(
                    "{:>2}  {percent} · {}",
                    s.step,
                    t!(lang, "lab-attempts", n = s.attempts)
                );
                if !s.common_wrong.is_empty() {
                    let wrong: Vec<String> = s
                        .common_wrong
                        .iter()
                        .map(|(answer, n)| {
                            let answer = crate::format::printable(answer).into_owned();
                            if *n > 1 {
                                format!("{} ×{n}", cut(&answer, 24))
                            } else {
                                cut(&answer, 24)
                            }
                        })
                        .collect();
                    text.push_str(&format!(
                        " · {}",
                        t!(lang, "dashboard-wrong", answers = wrong.join(", "))
                    ));
                }
                if !s.common_mistakes.is_empty() {
                    let named: Vec<String> = s
                        .common_mistakes
                        .iter()
                        .map(|(name, n)| format!("{} ×{n}", cut(name, 32)))
                        .collect();
                    text.push_str(&format!(
                        " · {}",
                        t!(lang, "dashboard-mistakes", names = named.join(", "))
                    ));
                }
                Line::from(text)
            })
            .collect();
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
        let mut lines = vec![match (&self.message, self.confirm_quit) {
            (_, true) => Line::styled(t!(lang, "dashboard-confirm-quit"), theme.warn()),
            (Some(message), _) => Line::styled(message.clone(), theme.warn()),
            _ => Line::from(""),
        }];
        lines.push(Line::styled(t!(lang, "dashboard-keys"), theme.dim()));
        Paragraph::new(lines).render(foot, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grade(student: &str, current: Option<usize>, submitted: Option<u64>) -> Grade {
        Grade {
            student: student.into(),
            total: 0,
            max: 30,
            steps: vec![0, 0, 0],
            attempts: vec![0, 0, 0],
            started: Some(1),
            submitted,
            timed_out: false,
            current,
            time_left: Some(60),
            flags: Vec::new(),
        }
    }

    fn press(dashboard: &mut Dashboard, code: KeyCode) -> Option<Command> {
        dashboard.key(KeyEvent::new(code, KeyModifiers::NONE), Lang::En)
    }

    #[test]
    fn keys_act_on_the_highlighted_student() {
        let mut dashboard = Dashboard {
            grades: vec![grade("amy", Some(2), None), grade("bo", None, Some(5))],
            ..Dashboard::default()
        };
        assert_eq!(
            press(&mut dashboard, KeyCode::Char('r')),
            Some(Command::Reroll("amy".into(), 2))
        );
        press(&mut dashboard, KeyCode::Down);
        assert_eq!(
            press(&mut dashboard, KeyCode::Char('+')),
            Some(Command::ExtraTime("bo".into(), 5))
        );
        assert_eq!(
            press(&mut dashboard, KeyCode::Char('r')),
            None,
            "bo handed in"
        );
        assert!(dashboard.message.is_some());
        assert_eq!(
            press(&mut dashboard, KeyCode::Char('q')),
            None,
            "asked first"
        );
        assert_eq!(
            press(&mut dashboard, KeyCode::Char('q')),
            Some(Command::Quit)
        );
    }
}
