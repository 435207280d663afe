//! Start-up (content load to first frame) and drawing every screen at 200×60 into a buffer, the
//! explorer with a 256-point sweep and the occupancy heat map among them (each must stay under 1 ms).

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use std::hint::black_box;
use warpdrill::app::{Action, App};
use warpdrill::content::Content;
use warpdrill::engine::{Arch, WarpAccess};
use warpdrill::progress::Progress;
use warpdrill::ui::Space;
use warpdrill::ui::Tab;
use warpdrill::ui::{ExplorerSetup, Theme};

fn app(content: Content) -> App {
    App::new(
        content,
        Progress::default(),
        None,
        Theme::new(false),
        std::sync::Arc::new(warpdrill::clock::FakeClock::at_secs(1_800_000_000)),
        Box::new(|| 7),
    )
}

fn large_deck(c: &mut Criterion) {
    let mut text = String::from("Deck(\n  cards: [\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "    (id: \"card-{i}\", topic: \"banks\", tags: [\"t{}\"], front: \"Question {i}: which bank holds byte {}?\", back: \"Bank {}.\"),\n",
            i % 17,
            i * 4,
            i % 32
        ));
    }
    text.push_str("  ],\n)\n");
    let topics = Content::builtin().topics;
    c.bench_function("load and validate a deck of 10 000 cards", |b| {
        b.iter(|| {
            let source = warpdrill::content::SourceFile {
                path: "content/large.ron".into(),
                text: text.clone(),
                kind: warpdrill::content::FileKind::Deck,
            };
            let loaded = warpdrill::content::load(vec![source], &topics);
            assert_eq!(loaded.cards.len(), 10_000);
            black_box(loaded)
        })
    });
}

fn startup(c: &mut Criterion) {
    c.bench_function("start-up: load built-in content", |b| {
        b.iter(|| black_box(warpdrill::ladder::check::builtin()))
    });
    c.bench_function("start-up: content load to first frame (80x24)", |b| {
        b.iter(|| {
            let app = app(warpdrill::ladder::check::builtin());
            let area = Rect::new(0, 0, 80, 24);
            let mut buf = Buffer::empty(area);
            warpdrill::app::render(&app, area, &mut buf);
            black_box(buf)
        })
    });
}

/// A step that sets up a screen: an action, or a key pressed on it.
enum Step {
    Do(Action),
    Press(KeyCode),
}

fn explore(space: Space, access: WarpAccess) -> Step {
    Step::Do(Action::OpenExplorer(ExplorerSetup::new(
        Arch::default_arch(),
        space,
        &access,
    )))
}

fn calc(tab: Tab) -> Step {
    Step::Do(Action::OpenCalculators(tab))
}

fn screens(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    let key = Step::Press;
    let open = Step::Do;
    let setups: Vec<(&str, Vec<Step>)> = vec![
        ("home", vec![]),
        ("ladder", vec![open(Action::OpenLadder(None))]),
        (
            "exercise (number, wrong answer)",
            vec![
                open(Action::OpenExercise("l3-textbook-vs-hardware".into())),
                key(KeyCode::Char('1')),
                key(KeyCode::Enter),
            ],
        ),
        (
            "exercise (choice)",
            vec![open(Action::OpenExercise("l3-limiter".into()))],
        ),
        (
            "search",
            vec![
                open(Action::OpenSearch),
                key(KeyCode::Char('b')),
                key(KeyCode::Char('a')),
            ],
        ),
        ("help", vec![open(Action::ToggleHelp)]),
        ("topic", vec![open(Action::OpenTopic("coalescing".into()))]),
        (
            "explorer (global, stride 2)",
            vec![explore(Space::Global, WarpAccess::affine(4, 2, 0))],
        ),
        (
            "explorer (global, stride 1024)",
            vec![explore(Space::Global, WarpAccess::affine(4, 1024, 0))],
        ),
        (
            "explorer (shared, tile[32][32])",
            vec![explore(Space::Shared, WarpAccess::affine(4, 32, 0))],
        ),
        (
            "explorer (shared, doubles)",
            vec![explore(Space::Shared, WarpAccess::affine(8, 1, 0))],
        ),
        (
            "explorer + sweep panel (global, stride 1..256)",
            vec![
                explore(Space::Global, WarpAccess::affine(4, 2, 0)),
                key(KeyCode::Char('w')),
            ],
        ),
        (
            "explorer + sweep panel (shared, stride 1..256)",
            vec![
                explore(Space::Shared, WarpAccess::affine(4, 32, 0)),
                key(KeyCode::Char('w')),
            ],
        ),
        (
            "calculator: occupancy + 3 what-if plots",
            vec![calc(Tab::Occupancy)],
        ),
        (
            "calculator: occupancy + heat map (32 × 32)",
            vec![calc(Tab::Occupancy), key(KeyCode::Char('m'))],
        ),
        ("calculator: tiling", vec![calc(Tab::Tiling)]),
        (
            "analyser: built-in kernels",
            vec![open(Action::OpenAnalyzeExamples)],
        ),
        (
            "analyser: the first kernel, line by line",
            vec![open(Action::OpenAnalyzeExamples), key(KeyCode::Enter)],
        ),
        ("calculator: roofline", vec![calc(Tab::Roofline)]),
    ];
    let mut group = c.benchmark_group("draw 200x60");
    for (name, actions) in setups {
        let mut app = app(Content::builtin());
        for step in actions {
            let action = match step {
                Step::Do(action) => Some(action),
                Step::Press(code) => app.handle_key(KeyEvent::new(code, KeyModifiers::NONE)),
            };
            if let Some(action) = action {
                app.update(action);
            }
        }
        bench_draw(&mut group, name, &app, area);
    }
    // Lab mode: the overview and a step, on the sample lab.
    let text = include_str!("../labs/coalescing-and-banks.ron");
    let content = Content::builtin();
    let lab = warpdrill::lab::Lab::parse("lab.ron", text).expect("the sample lab reads");
    let student = warpdrill::lab::Entry {
        student: "alice".into(),
        ..Default::default()
    };
    let items = warpdrill::lab::plan(&lab, &content, &student, "lab.ron", text).expect("a plan");
    let mut app = app(content);
    app.start_lab(warpdrill::lab::LabSession::in_memory(
        lab,
        student,
        items,
        1_800_000_000,
    ));
    bench_draw(&mut group, "lab overview", &app, area);
    app.update(Action::LabOpen(0));
    bench_draw(&mut group, "lab step", &app, area);
    group.finish();
}

fn bench_draw(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    app: &App,
    area: Rect,
) {
    let mut buf = Buffer::empty(area);
    group.bench_function(name, |b| {
        b.iter(|| {
            buf.reset();
            warpdrill::app::render(app, area, &mut buf);
            black_box(&buf);
        })
    });
}

/// A screen opened, one key pressed to set it up, and two keys that change it and back.
struct KeystrokeCase {
    name: &'static str,
    open: Action,
    setup: Option<KeyCode>,
    keys: [KeyCode; 2],
}

/// A key that changes what a sweep or heat map shows, then the frame drawn: the key counts the
/// curves again (the explorer keeps them in its state until its parameters change), so this is
/// what the learner waits for on every keystroke. Two keys per iteration (one way and back), so
/// each frame differs from the last.
fn keystrokes(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    let explorer = |space, access: WarpAccess| {
        Action::OpenExplorer(ExplorerSetup::new(Arch::default_arch(), space, &access))
    };
    let offset = [KeyCode::Char('o'), KeyCode::Char('O')];
    let block_size = [KeyCode::Right, KeyCode::Left];
    let cases = [
        KeystrokeCase {
            name: "explorer + sweep panel (global): offset ±1",
            open: explorer(Space::Global, WarpAccess::affine(4, 2, 0)),
            setup: Some(KeyCode::Char('w')),
            keys: offset,
        },
        KeystrokeCase {
            name: "explorer + sweep panel (shared): offset ±1",
            open: explorer(Space::Shared, WarpAccess::affine(4, 32, 0)),
            setup: Some(KeyCode::Char('w')),
            keys: offset,
        },
        KeystrokeCase {
            name: "calculator: occupancy + heat map, block size ±32",
            open: Action::OpenCalculators(Tab::Occupancy),
            setup: Some(KeyCode::Char('m')),
            keys: block_size,
        },
        KeystrokeCase {
            name: "calculator: occupancy + 3 what-if plots, block size ±32",
            open: Action::OpenCalculators(Tab::Occupancy),
            setup: None,
            keys: block_size,
        },
    ];
    let mut group = c.benchmark_group("keystroke + draw 200x60");
    group.throughput(criterion::Throughput::Elements(2));
    for KeystrokeCase {
        name,
        open,
        setup,
        keys,
    } in cases
    {
        let mut app = app(Content::builtin());
        app.update(open);
        if let Some(code) = setup
            && let Some(action) = app.handle_key(KeyEvent::new(code, KeyModifiers::NONE))
        {
            app.update(action);
        }
        // Each key must change the frame, or this would time a redraw of curves already counted.
        let frames: Vec<Buffer> = keys
            .iter()
            .map(|code| {
                if let Some(action) = app.handle_key(KeyEvent::new(*code, KeyModifiers::NONE)) {
                    app.update(action);
                }
                let mut buf = Buffer::empty(area);
                warpdrill::app::render(&app, area, &mut buf);
                buf
            })
            .collect();
        assert_ne!(frames[0], frames[1], "{name}: the keys change nothing");
        let mut buf = Buffer::empty(area);
        group.bench_function(name, |b| {
            b.iter(|| {
                for code in keys {
                    if let Some(action) = app.handle_key(KeyEvent::new(code, KeyModifiers::NONE)) {
                        app.update(action);
                    }
                    buf.reset();
                    warpdrill::app::render(&app, area, &mut buf);
                    black_box(&buf);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, startup, large_deck, screens, keystrokes);
criterion_main!(benches);
