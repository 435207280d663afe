//! The calculators driven with random keys and extreme typed values on every field, drawn at random
//! sizes after every key: nothing panics, and every input stays within its bounds.

use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use warpdrill::app::{Action, App, Screen};
use warpdrill::content::Content;
use warpdrill::engine::ELEM_SIZES;
use warpdrill::progress::Progress;
use warpdrill::ui::Theme;
use warpdrill::ui::calculators::{State, Tab};

fn app(tab: Tab) -> App {
    let mut next_seed = 0u64;
    let mut app = App::new(
        Content::builtin(),
        Progress::default(),
        None,
        Theme::new(false),
        std::sync::Arc::new(warpdrill::clock::FakeClock::at_secs(1_800_000_000)),
        Box::new(move || {
            next_seed += 1;
            next_seed
        }),
    );
    app.update(Action::OpenCalculators(tab));
    app
}

fn calculators(app: &App) -> &State {
    match app.screen() {
        Screen::Calculators(state) => state,
        other => panic!("the keys left the calculators for {other:?}"),
    }
}

/// Values a learner might type, and worse.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1",
    "999999999999",
    "1e400",
    "-1e400",
    "1e-400",
    "NaN",
    "inf",
    "-inf",
    "",
    " ",
    "-0",
    "0x",
    "-0x",
    "0xffffffffffffffff",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "1.7976931348623157e308",
    "5e-324",
    "4.9e-324T",
    "1e308P",
    "999999999999999k",
    "4294967295",
    "4294967296",
    "1048576",
    "1048577",
    "1,024",
    "64k",
    "default",
    "100%",
    "101%",
    "-1%",
    "%",
    "sm_70",
    "sm_120",
    "gfx942",
    "1T",
    "0.001",
    "10000",
    "k",
    "T",
    "💥",
    "\u{202e}1",
];

fn typed_text() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => proptest::sample::select(EXTREMES).prop_map(str::to_string),
        3 => proptest::collection::vec(any::<char>(), 0..16).prop_map(String::from_iter),
        1 => Just("9".repeat(1000)),
        1 => Just("x".repeat(4000)),
    ]
}

/// One learner action.
#[derive(Debug, Clone)]
enum Step {
    /// A key on its own. No `q`, `g`, `/`, `?`, Esc or Ctrl: those leave the calculators.
    Key(KeyEvent),
    /// On row `row` (counted from the top), Enter, `text`, then Enter (or Esc to cancel).
    Type {
        row: usize,
        text: String,
        cancel: bool,
    },
}

fn key() -> impl Strategy<Value = KeyEvent> {
    let codes = prop_oneof![
        Just(KeyCode::Up),
        Just(KeyCode::Down),
        Just(KeyCode::Left),
        Just(KeyCode::Right),
        Just(KeyCode::Tab),
        Just(KeyCode::BackTab),
        Just(KeyCode::Enter),
        Just(KeyCode::Backspace),
        Just(KeyCode::Delete),
        Just(KeyCode::Home),
        Just(KeyCode::End),
        Just(KeyCode::PageDown),
        proptest::sample::select(vec![
            '1', '2', '3', 'a', 'd', 'h', 'j', 'k', 'l', '+', '-', '9'
        ])
        .prop_map(KeyCode::Char),
    ];
    let modifiers = prop_oneof![
        4 => Just(KeyModifiers::NONE),
        1 => Just(KeyModifiers::SHIFT),
        1 => Just(KeyModifiers::ALT),
    ];
    (codes, modifiers).prop_map(|(code, modifiers)| KeyEvent::new(code, modifiers))
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => key().prop_map(Step::Key),
        2 => (0usize..11, typed_text(), proptest::bool::weighted(0.1))
            .prop_map(|(row, text, cancel)| Step::Type { row, text, cancel }),
    ]
}

/// Mostly the sizes the tutor draws at (from 60×20), a few below (the "too small" message).
fn size() -> impl Strategy<Value = (u16, u16)> {
    prop_oneof![
        8 => (60u16..=220, 20u16..=70),
        1 => (60u16..=400, 20u16..=24),
        1 => (0u16..60, 0u16..20),
    ]
}

struct Driver {
    app: App,
}

impl Driver {
    /// Presses `key`, and draws at `size` when `draw`.
    fn key(&mut self, code: KeyCode, modifiers: KeyModifiers, size: (u16, u16), draw: bool) {
        if let Some(action) = self.app.handle_key(KeyEvent::new(code, modifiers)) {
            self.app.update(action);
        }
        if draw {
            let area = Rect::new(0, 0, size.0, size.1);
            let mut buf = Buffer::empty(area);
            warpdrill::app::render(&self.app, area, &mut buf);
        }
    }

    fn press(&mut self, code: KeyCode, size: (u16, u16)) {
        self.key(code, KeyModifiers::NONE, size, true);
    }

    fn step(&mut self, step: &Step, size: (u16, u16)) {
        match step {
            Step::Key(key) => self.key(key.code, key.modifiers, size, true),
            Step::Type { row, text, cancel } => {
                // Finish a value a stray Enter began, so that the rows below are reached.
                if calculators(&self.app).typing() {
                    self.press(KeyCode::Enter, size);
                }
                for _ in 0..selected(calculators(&self.app)) {
                    self.press(KeyCode::Up, size);
                }
                for _ in 0..*row {
                    self.press(KeyCode::Down, size);
                }
                self.press(KeyCode::Enter, size);
                for (n, c) in text.chars().enumerate() {
                    // A long paste is drawn now and then, not after each of its characters.
                    self.key(KeyCode::Char(c), KeyModifiers::NONE, size, n % 64 == 0);
                }
                self.press(
                    if *cancel {
                        KeyCode::Esc
                    } else {
                        KeyCode::Enter
                    },
                    size,
                );
            }
        }
    }
}

/// The row under the cursor of the calculator shown.
fn selected(state: &State) -> usize {
    match state.tab() {
        Tab::Occupancy => state.occupancy().panel.selected,
        Tab::Tiling => state.tiling().panel.selected,
        Tab::Roofline => state.roofline().panel.selected,
    }
}

/// Every input within the bounds the calculators promise.
fn check(state: &State) {
    let occupancy = state.occupancy();
    let c = &occupancy.config;
    assert!(occupancy.arch.nvidia.is_some(), "{}", occupancy.arch.key);
    assert!((1..=1024).contains(&c.block_size), "{c:?}");
    assert!(c.regs_per_thread <= 255, "{c:?}");
    assert!(
        c.static_smem <= 1 << 20 && c.dynamic_smem <= 1 << 20,
        "{c:?}"
    );
    assert!(occupancy.panel.selected < 6);

    let tiling = state.tiling();
    let t = &tiling.input;
    assert!(tiling.arch.nvidia.is_some(), "{}", tiling.arch.key);
    assert!((1..=1 << 20).contains(&t.n), "{t:?}");
    assert!((1..=1 << 20).contains(&t.tile), "{t:?}");
    assert!(ELEM_SIZES.contains(&t.elem_bytes), "{t:?}");
    assert!(tiling.regs <= 255);
    assert!(tiling.panel.selected < 5);

    let roofline = state.roofline();
    for value in [roofline.peak_flops, roofline.bandwidth] {
        assert!(value.is_finite() && value > 0.0, "{roofline:?}");
    }
    assert!((1..=8).contains(&roofline.points.len()), "{roofline:?}");
    for (_, intensity) in &roofline.points {
        assert!((1e-3..=1e4).contains(intensity), "{roofline:?}");
    }
    assert!(roofline.panel.selected < 2 + roofline.points.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_keys_and_extreme_values_never_panic(
        tab in proptest::sample::select(vec![Tab::Occupancy, Tab::Tiling, Tab::Roofline]),
        steps in proptest::collection::vec((step(), size()), 1..32),
    ) {
        let mut driver = Driver { app: app(tab) };
        prop_assert_eq!(calculators(&driver.app).tab(), tab);
        for (step, size) in &steps {
            driver.step(step, *size);
            check(calculators(&driver.app));
        }
    }
}

/// Every extreme value on every field of every calculator, drawn at 80×24 and at 60×20.
#[test]
fn every_extreme_value_on_every_field() {
    for tab in [Tab::Occupancy, Tab::Tiling, Tab::Roofline] {
        let mut driver = Driver { app: app(tab) };
        for row in 0..6 {
            for (n, text) in EXTREMES.iter().enumerate() {
                let size = if n % 2 == 0 { (80, 24) } else { (60, 20) };
                let step = Step::Type {
                    row,
                    text: text.to_string(),
                    cancel: false,
                };
                driver.step(&step, size);
                check(calculators(&driver.app));
            }
        }
        // A paste longer than the input line takes.
        let step = Step::Type {
            row: 1,
            text: "7".repeat(10_050),
            cancel: false,
        };
        driver.step(&step, (80, 24));
        check(calculators(&driver.app));
        assert_eq!(calculators(&driver.app).tab(), tab);
    }
}
