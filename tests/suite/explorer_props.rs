//! The explorer never panics: every field, stepped and typed with extreme values, every preset, at
//! sizes from tiny to wide, on every architecture.

use crate::common;

use common::{app, press, screen, type_text};
use proptest::prelude::*;
use ratatui::crossterm::event::KeyCode;
use warpdrill::app::{Action, Screen};
use warpdrill::ui::ExplorerSetup;

/// What a learner may do in the explorer.
#[derive(Debug, Clone)]
enum Step {
    /// A key (arrows, letters, Enter, Esc…).
    Key(KeyCode),
    /// Enter, a value typed into the field under the cursor, Enter.
    Type(String),
    /// Draw at this size.
    Draw(u16, u16),
}

fn extreme_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_string()),
        Just("-1".to_string()),
        Just("1".to_string()),
        Just("16".to_string()),
        Just("9223372036854775807".to_string()),
        Just("-9223372036854775808".to_string()),
        Just("99999999999999999999999".to_string()),
        Just("1e400".to_string()),
        Just("NaN".to_string()),
        Just("".to_string()),
        Just("0xffffffffffffffff".to_string()),
        Just("first64".to_string()),
        Just("0,4,8,9223372036854775807".to_string()),
        Just("gfx942".to_string()),
        Just("column".to_string()),
        Just("aos".to_string()),
        Just("shared".to_string()),
        Just("x".repeat(5000)),
        "[ -~]{0,12}",
        any::<i64>().prop_map(|n| n.to_string()),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => prop_oneof![
            Just(KeyCode::Up),
            Just(KeyCode::Down),
            Just(KeyCode::Left),
            Just(KeyCode::Right),
            Just(KeyCode::Enter),
            Just(KeyCode::Esc),
            Just(KeyCode::Char('s')),
            Just(KeyCode::Char('S')),
            Just(KeyCode::Char('o')),
            Just(KeyCode::Char('O')),
            Just(KeyCode::Char('e')),
            Just(KeyCode::Char('m')),
            Just(KeyCode::Char('a')),
            Just(KeyCode::Char('p')),
            Just(KeyCode::Char('j')),
            Just(KeyCode::Char('k')),
            Just(KeyCode::Backspace),
        ]
        .prop_map(Step::Key),
        3 => extreme_text().prop_map(Step::Type),
        1 => (1u16..220, 1u16..70).prop_map(|(w, h)| Step::Draw(w, h)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn no_key_or_value_makes_the_explorer_panic(steps in prop::collection::vec(step(), 1..60)) {
        let mut app = app();
        app.update(Action::OpenExplorer(ExplorerSetup::default()));
        for step in steps {
            match step {
                Step::Key(code) => press(&mut app, code),
                Step::Type(text) => {
                    press(&mut app, KeyCode::Enter);
                    type_text(&mut app, &text);
                    press(&mut app, KeyCode::Enter);
                }
                Step::Draw(width, height) => {
                    screen(&app, width, height);
                }
            }
            // Esc on the explorer goes back; come back to keep exploring.
            if !matches!(app.screen(), Screen::Explorer(_)) {
                app.update(Action::OpenExplorer(ExplorerSetup::default()));
            }
            screen(&app, 80, 24);
        }
    }
}
