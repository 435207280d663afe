//! Colours and emphasis. With `NO_COLOR` set, everything reads through bold, reverse and underline.

use ratatui::style::{Color, Modifier, Style};

/// The styles every screen draws with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Whether colours are used.
    pub color: bool,
}

impl Theme {
    /// Colours unless `no_color`.
    pub fn new(no_color: bool) -> Self {
        Theme { color: !no_color }
    }

    /// From the environment: `NO_COLOR` set (to anything non-empty) turns colour off.
    pub fn from_env() -> Self {
        Theme::new(std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()))
    }

    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    /// Ordinary text.
    pub fn text(&self) -> Style {
        Style::new()
    }

    /// Secondary text.
    pub fn dim(&self) -> Style {
        if self.color {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    /// Titles and headings.
    pub fn title(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// The selected row.
    pub fn selected(&self) -> Style {
        if self.color {
            Style::new()
                .bg(Color::Blue)
                .fg(Color::White)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::REVERSED)
        }
    }

    /// Keys in the footer and help.
    pub fn key(&self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    /// Right, solved, good.
    pub fn good(&self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }

    /// Wrong, conflict, waste.
    pub fn bad(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    /// Attention, attempted.
    pub fn warn(&self) -> Style {
        self.fg(Color::Yellow)
    }

    /// Emphasis in prose (`*x*`).
    pub fn emphasis(&self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    /// Code in prose (`` `x` ``).
    pub fn code(&self) -> Style {
        self.fg(Color::Magenta)
    }

    /// Matched characters in search results.
    pub fn matched(&self) -> Style {
        self.fg(Color::Yellow)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// Borders.
    pub fn border(&self) -> Style {
        self.fg(Color::DarkGray)
    }

    /// The n-th of several distinct colours (transactions in diagrams); without colour, alternating
    /// emphasis.
    pub fn series(&self, n: usize) -> Style {
        const PALETTE: [Color; 8] = [
            Color::Cyan,
            Color::Green,
            Color::Yellow,
            Color::Magenta,
            Color::Blue,
            Color::LightRed,
            Color::LightGreen,
            Color::LightCyan,
        ];
        if self.color {
            Style::new().fg(PALETTE[n % PALETTE.len()])
        } else if n.is_multiple_of(2) {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        }
    }

    /// A heat-map cell for a fraction 0–1 (occupancy): red through yellow to green behind dark
    /// text; without colour, bold from 75 % up.
    pub fn heat(&self, fraction: f64) -> Style {
        if !self.color {
            return if fraction >= 0.75 {
                Style::new().add_modifier(Modifier::BOLD)
            } else {
                Style::new()
            };
        }
        let background = match fraction {
            f if f >= 0.999 => Color::Green,
            f if f >= 0.75 => Color::LightGreen,
            f if f >= 0.5 => Color::Yellow,
            f if f >= 0.25 => Color::LightRed,
            f if f > 0.0 => Color::Red,
            _ => Color::DarkGray,
        };
        Style::new().bg(background).fg(Color::Black)
    }
}
