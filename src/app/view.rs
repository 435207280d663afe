//! Drawing the app: the top screen, the overlay over it, and the footer of keys; and the event loop,
//! generic over the ratatui `Backend` (so tests drive the whole app against `TestBackend`).
//!
//! ```text
//! ┌ the top screen (or search / help drawn over it) ─────────────┐
//! │                                                              │
//! └──────────────────────────────────────────────────────────────┘
//! key action · key action · …                       ← the footer
//! ```

use super::{App, Overlay};
use crate::ui::{self, Component, MIN_HEIGHT, MIN_WIDTH, footer_line, help};
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::Event;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::Widget;
use ratatui::{Frame, Terminal};

/// Draws the whole app.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    render(app, area, frame.buffer_mut());
}

/// Draws the whole app into a buffer (what `draw` and the benchmarks use).
pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        ui::too_small(area, buf, app.theme, app.lang);
        return;
    }
    let ctx = app.ctx();
    let [header, body, footer] = area.layout(&Layout::vertical([
        Constraint::Length(u16::from(app.lab.is_some())),
        Constraint::Fill(1),
        Constraint::Length(1),
    ]));
    if let Some(lab) = &app.lab {
        let shown = match app.screen() {
            super::Screen::LabStep(step) => Some(step.index),
            super::Screen::LabPuzzle(step) => Some(step.index),
            _ => None,
        };
        ui::lab::header(&ctx, lab, shown, header.width).render(header, buf);
    }
    let screen = app.screen().component();
    screen.render(&ctx, body, buf);
    let keys = screen.keys(app.lang);
    match &app.overlay {
        Some(Overlay::Search(state)) => {
            state.render(&ctx, body, buf);
            footer_line(&state.keys(app.lang), app.theme, footer.width).render(footer, buf);
        }
        Some(Overlay::Help) => {
            help::render(&ctx, &keys, &app.global_keys(), &app.help_scroll, body, buf);
            let mut keys = help::keys(app.lang);
            if app.help_scroll.overflowing() {
                keys.push(ui::scroll::key_hint(app.lang));
            }
            footer_line(&keys, app.theme, footer.width).render(footer, buf);
        }
        None => match &app.flash {
            Some(message) => {
                ratatui::text::Line::styled(message.clone(), app.theme.warn()).render(footer, buf)
            }
            None if app.unsaved.is_some() => {
                // A failed save stays in sight on every screen until a save succeeds.
                let warning = crate::t!(app.lang, "app-unsaved-footer");
                let used = ui::text_width(&warning) as u16 + 3;
                let mut spans = vec![
                    ratatui::text::Span::styled(warning, app.theme.warn()),
                    ratatui::text::Span::styled(" · ", app.theme.dim()),
                ];
                spans
                    .extend(footer_line(&keys, app.theme, footer.width.saturating_sub(used)).spans);
                ratatui::text::Line::from(spans).render(footer, buf)
            }
            None => footer_line(&keys, app.theme, footer.width).render(footer, buf),
        },
    }
}

/// Runs the app until the learner quits: draw, wait for an event, update.
pub fn run<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    mut next_event: impl FnMut() -> std::io::Result<Event>,
) -> std::io::Result<()>
where
    B::Error: Into<std::io::Error>,
{
    if let Ok(size) = terminal.size() {
        app.resize(size.width, size.height);
    }
    while !app.quit {
        // A result that came in since the last event is shown in this frame.
        app.poll_work();
        terminal
            .draw(|frame| draw(frame, app))
            .map_err(Into::into)?;
        let event = next_event()?;
        app.poll_work();
        if let Event::Resize(width, height) = event {
            // A fixed viewport follows the terminal only as far as the largest area drawn.
            terminal
                .resize(crate::ui::drawn_area(width, height))
                .map_err(Into::into)?;
        }
        if let Some(action) = app.handle_event(&event) {
            app.update(action);
        }
    }
    Ok(())
}
