//! Every screen, in every language, at 80×24, 100×30 and 200×60: each box keeps its four borders on
//! every row (text measured in display cells never runs over one), and a screen drawn over the one
//! before it — as the terminal redraws only what changed — leaves no cell of the old screen behind.

use crate::common::{app, press};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use ratatui::text::Span;
use warpdrill::app::App;
use warpdrill::content::Content;
use warpdrill::i18n::Lang;
use warpdrill::ui::action::AnalyzeSetup;
use warpdrill::ui::{Action, ExplorerSetup, Tab};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (200, 60)];

/// The screens a learner reaches, each as the steps that open it from the one before.
/// A screen of the tour: its name and the steps that open it.
type Step = (String, Box<dyn Fn(&mut App)>);

fn tour() -> Vec<Step> {
    let content = Content::builtin();
    let mut steps: Vec<Step> = vec![
        (
            "home".into(),
            Box::new(|a: &mut App| a.update(Action::Home)),
        ),
        (
            "ladder".into(),
            Box::new(|a: &mut App| a.update(Action::OpenLadder(None))),
        ),
        (
            "lessons".into(),
            Box::new(|a: &mut App| a.update(Action::OpenLessons)),
        ),
    ];
    for topic in &content.topics {
        let id = topic.id.clone();
        steps.push((
            format!("lesson {id}"),
            Box::new(move |a: &mut App| a.update(Action::OpenLesson(id.clone()))),
        ));
        let id = topic.id.clone();
        steps.push((
            format!("lesson {id}, last page"),
            Box::new(move |a: &mut App| {
                a.update(Action::OpenLesson(id.clone()));
                for _ in 0..8 {
                    press(a, KeyCode::Right);
                }
            }),
        ));
        let id = topic.id.clone();
        steps.push((
            format!("topic {id}"),
            Box::new(move |a: &mut App| a.update(Action::OpenTopic(id.clone()))),
        ));
    }
    // One exercise of each kind and level, answered wrong so the feedback is drawn too.
    let mut seen = std::collections::HashSet::new();
    for exercise in &content.exercises {
        let kind = format!(
            "{:?}{:?}",
            exercise.level,
            std::mem::discriminant(&exercise.answer)
        );
        if !seen.insert(kind) {
            continue;
        }
        let id = exercise.id.clone();
        steps.push((
            format!("exercise {id}"),
            Box::new(move |a: &mut App| a.update(Action::OpenExercise(id.clone()))),
        ));
        let id = exercise.id.clone();
        steps.push((
            format!("exercise {id}, answered"),
            Box::new(move |a: &mut App| {
                a.update(Action::OpenExercise(id.clone()));
                for c in "7".chars() {
                    press(a, KeyCode::Char(c));
                }
                press(a, KeyCode::Enter);
            }),
        ));
    }
    let card = content.cards[0].id.clone();
    steps.push((
        "card".into(),
        Box::new(move |a: &mut App| {
            a.update(Action::OpenCard(card.clone()));
            press(a, KeyCode::Char(' '));
        }),
    ));
    for preset in 0..16 {
        steps.push((
            format!("explorer, preset {preset}"),
            Box::new(move |a: &mut App| {
                a.update(Action::OpenExplorer(ExplorerSetup::default()));
                press(a, KeyCode::Char('p'));
                for _ in 0..preset {
                    press(a, KeyCode::Down);
                }
                press(a, KeyCode::Enter);
            }),
        ));
    }
    steps.push((
        "explorer, shared, stride 2, sweep".into(),
        Box::new(|a: &mut App| {
            a.update(Action::OpenExplorer(ExplorerSetup::default()));
            press(a, KeyCode::Char('m'));
            press(a, KeyCode::Char('s'));
            press(a, KeyCode::Char('w'));
        }),
    ));
    for tab in [Tab::Occupancy, Tab::Tiling, Tab::Roofline] {
        steps.push((
            format!("calculators {tab:?}"),
            Box::new(move |a: &mut App| a.update(Action::OpenCalculators(tab))),
        ));
    }
    steps.push((
        "occupancy heat map".into(),
        Box::new(|a: &mut App| {
            a.update(Action::OpenCalculators(Tab::Occupancy));
            press(a, KeyCode::Char('m'));
        }),
    ));
    steps.push((
        "review".into(),
        Box::new(|a: &mut App| a.update(Action::OpenReview)),
    ));
    steps.push((
        "statistics".into(),
        Box::new(|a: &mut App| a.update(Action::OpenStats)),
    ));
    steps.push((
        "analyser examples".into(),
        Box::new(|a: &mut App| a.update(Action::OpenAnalyzeExamples)),
    ));
    for name in [
        "transpose_naive",
        "transpose_tiled32",
        "matmul_tiled",
        "aos",
    ] {
        steps.push((
            format!("analyser {name}"),
            Box::new(move |a: &mut App| {
                if let Some(setup) = AnalyzeSetup::example(name) {
                    a.update(Action::AnalyzeKernel(Box::new(setup)));
                }
            }),
        ));
    }
    steps.push((
        "analyser, the time's terms".into(),
        Box::new(|a: &mut App| press(a, KeyCode::Char('t'))),
    ));
    steps.push((
        "search".into(),
        Box::new(|a: &mut App| {
            a.update(Action::Home);
            a.update(Action::OpenSearch);
            for c in "bank".chars() {
                press(a, KeyCode::Char(c));
            }
        }),
    ));
    steps.push((
        "help".into(),
        Box::new(|a: &mut App| {
            a.update(Action::CloseOverlay);
            a.update(Action::OpenLadder(None));
            a.update(Action::ToggleHelp);
        }),
    ));
    steps
}

fn symbol(buf: &Buffer, x: u16, y: u16) -> &str {
    buf[(x, y)].symbol()
}

/// A box found in a buffer: its corners, or where and why its sides break.
enum Found {
    Whole {
        x: u16,
        y: u16,
        right: u16,
        bottom: u16,
    },
    Broken {
        at: (u16, u16),
        why: String,
    },
}

fn boxes(buf: &Buffer) -> Vec<Found> {
    let (width, height) = (buf.area.width, buf.area.height);
    let mut found = Vec::new();
    for y in 0..height {
        for x in 0..width {
            if symbol(buf, x, y) != "┌" {
                continue;
            }
            let Some(right) = (x + 1..width).find(|&r| symbol(buf, r, y) == "┐") else {
                found.push(Found::Broken {
                    at: (width - 1, y),
                    why: format!("row {y}: a box opened at column {x} has no ┐"),
                });
                continue;
            };
            // A box's top border runs unbroken by another corner (titles are text on it).
            if (x + 1..right).any(|c| matches!(symbol(buf, c, y), "┌" | "└" | "┘")) {
                continue;
            }
            let mut row = y + 1;
            found.push(loop {
                if row >= height {
                    break Found::Broken {
                        at: (x, height - 1),
                        why: format!("the box at {x},{y} has no bottom"),
                    };
                }
                let (l, r) = (symbol(buf, x, row), symbol(buf, right, row));
                if l == "└" && r == "┘" {
                    break Found::Whole { x, y, right, bottom: row };
                }
                let left_ok = matches!(l, "│" | "├");
                if !left_ok || !matches!(r, "│" | "┤") {
                    break Found::Broken {
                        at: if left_ok { (right, row) } else { (x, row) },
                        why: format!(
                            "row {row}: the box at {x},{y} has `{l}` … `{r}` for its sides (columns {x} and {right})"
                        ),
                    };
                }
                row += 1;
            });
        }
    }
    found
}

/// Every box drawn in `buf` (`┌` … `┐` on one row) keeps `│` (or a junction) at both sides of
/// every row down to its `└ … ┘` — unless a whole box drawn over it (an overlay) hides that side.
fn broken_box(buf: &Buffer) -> Option<String> {
    let found = boxes(buf);
    let covers = |(cx, cy): (u16, u16)| {
        found.iter().any(|b| match b {
            Found::Whole {
                x,
                y,
                right,
                bottom,
            } => (*x..=*right).contains(&cx) && (*y..=*bottom).contains(&cy),
            Found::Broken { .. } => false,
        })
    };
    found.iter().find_map(|b| match b {
        Found::Broken { at, why } if !covers(*at) => Some(why.clone()),
        _ => None,
    })
}

fn text(buf: &Buffer) -> String {
    buf.content
        .chunks(usize::from(buf.area.width))
        .map(|row| {
            row.iter()
                .map(|c| c.symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Writes to `screen` the cells of `next` that differ from `last`, as a terminal does: a
/// double-width character covers the cell after it, and a character written over the second half
/// of a double-width one erases its first half.
fn write_as_a_terminal(screen: &mut Buffer, last: &Buffer, next: &Buffer) {
    let width = screen.area.width;
    for (x, y, cell) in last.diff(next) {
        if x > 0 && Span::raw(screen[(x - 1, y)].symbol()).width() == 2 {
            screen[(x - 1, y)].set_symbol(" ");
        }
        screen[(x, y)] = cell.clone();
        if Span::raw(cell.symbol()).width() == 2 && x + 1 < width {
            screen[(x + 1, y)] = next[(x + 1, y)].clone();
        }
    }
}

fn fresh(app: &App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| warpdrill::app::draw(frame, app))
        .expect("drawing");
    terminal.backend().buffer().clone()
}

#[test]
fn every_screen_in_every_language_keeps_its_borders_and_leaves_nothing_of_the_last() {
    let steps = tour();
    let mut failures = Vec::new();
    for lang in Lang::ALL {
        for (width, height) in SIZES {
            let mut app = app();
            app.set_lang(lang);
            // One screen for the whole tour: each frame reaches it as the terminal gets it, only
            // the cells that changed since the last frame, written as a terminal writes them.
            let mut screen = Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height));
            let mut last = screen.clone();
            for (name, step) in &steps {
                step(&mut app);
                let alone = fresh(&app, width, height);
                write_as_a_terminal(&mut screen, &last, &alone);
                last = alone.clone();
                let shown = screen.clone();
                let at = format!("{lang} {width}×{height} {name}");
                if shown != alone {
                    failures.push(format!(
                        "{at}: drawn over the screen before, it differs from the screen drawn alone:\n{}\n--- alone ---\n{}",
                        text(&shown),
                        text(&alone)
                    ));
                }
                if let Some(why) = broken_box(&alone) {
                    failures.push(format!("{at}: {why}\n{}", text(&alone)));
                }
                if failures.len() > 3 {
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_box_check_finds_a_broken_border() {
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 10, 4));
    for (x, y, s) in [
        (0, 0, "┌"),
        (9, 0, "┐"),
        (0, 1, "│"),
        (9, 1, "│"),
        (0, 2, "│"),
        (0, 3, "└"),
        (9, 3, "┘"),
    ] {
        buf[(x, y)].set_symbol(s);
    }
    assert!(broken_box(&buf).is_some_and(|w| w.contains("row 2")));
    buf[(9, 2)].set_symbol("│");
    assert_eq!(broken_box(&buf), None);
}
