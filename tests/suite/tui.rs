//! The whole app driven with key events against `TestBackend`, screens snapshotted with `insta` at
//! 80×24 and at the minimum size, with the rows that matter asserted exactly.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::Arc;
use warpdrill::app::{Action, App};
use warpdrill::clock::FakeClock;
use warpdrill::content::Content;
use warpdrill::progress::{Progress, Store};
use warpdrill::ui::{self, Theme};

struct Harness {
    app: App,
    clock: Arc<FakeClock>,
    terminal: Terminal<TestBackend>,
}

impl Harness {
    fn new(width: u16, height: u16) -> Self {
        Self::with(width, height, Progress::default(), None)
    }

    fn with(width: u16, height: u16, progress: Progress, store: Option<Store>) -> Self {
        let clock = Arc::new(FakeClock::at_secs(1_800_000_000));
        let mut next_seed = 0u64;
        let app = App::new(
            Content::builtin(),
            progress,
            store,
            Theme::new(false),
            clock.clone(),
            Box::new(move || {
                next_seed += 1;
                next_seed
            }),
        );
        Harness {
            app,
            clock,
            terminal: Terminal::new(TestBackend::new(width, height)).unwrap(),
        }
    }

    fn press(&mut self, code: KeyCode) -> &mut Self {
        self.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn ctrl(&mut self, c: char) -> &mut Self {
        self.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
    }

    fn key(&mut self, key: KeyEvent) -> &mut Self {
        self.clock.advance_secs(7);
        if let Some(action) = self.app.handle_key(key) {
            self.app.update(action);
        }
        self
    }

    fn type_text(&mut self, text: &str) -> &mut Self {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
        self
    }

    fn screen(&mut self) -> String {
        self.terminal
            .draw(|frame| warpdrill::app::draw(frame, &self.app))
            .unwrap();
        let buffer = self.terminal.backend().buffer();
        let width = buffer.area.width as usize;
        buffer
            .content
            .chunks(width)
            .map(|row| {
                row.iter()
                    .map(|cell| cell.symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn row_containing(&mut self, needle: &str) -> String {
        let screen = self.screen();
        screen
            .lines()
            .find(|line| line.contains(needle))
            .unwrap_or_else(|| panic!("no row contains {needle:?}:\n{screen}"))
            .to_string()
    }
}

/// The options shown and the right ones, of the exercise on screen.
fn choice_key(h: &Harness) -> (Vec<String>, Vec<usize>) {
    match h.app.screen() {
        warpdrill::app::Screen::Exercise(state) => match state.variant() {
            Ok(v) => match &v.key {
                warpdrill::ladder::AnswerKey::Choice {
                    options, correct, ..
                } => (options.clone(), correct.clone()),
                other => panic!("not a choice: {other:?}"),
            },
            Err(e) => panic!("{e}"),
        },
        _ => panic!("not an exercise"),
    }
}

#[test]
fn home_ladder_exercise_answer_hint_back_at_80x24() {
    let mut h = Harness::new(80, 24);
    let home = h.screen();
    insta::assert_snapshot!("home_80x24", home);
    // A new learner's 80×24 Home folds the levels into one row to keep getting started whole.
    assert!(home.contains("L1 0/12 · L2 0/24"), "{home}");
    assert!(home.contains("▸ Learn: lessons with live diagrams"));
    assert!(home.contains("  Ladder — exercises L1 to L5"));

    // Learn comes first; the ladder is the next entry (or L).
    h.press(KeyCode::Down).press(KeyCode::Enter);
    let ladder = h.screen();
    insta::assert_snapshot!("ladder_80x24", ladder);
    assert!(ladder.contains("How big is a sector?"));

    h.press(KeyCode::Enter);
    let exercise = h.screen();
    insta::assert_snapshot!("exercise_80x24", exercise);
    assert!(exercise.contains("How many bytes is one sector?"));

    // The first wrong answer says so and shows the next hint, not the answer.
    h.type_text("64").press(KeyCode::Enter);
    let wrong = h.screen();
    insta::assert_snapshot!("exercise_wrong_80x24", wrong);
    assert!(h.row_containing("Not quite").contains("you answered 64 B."));
    assert!(!wrong.contains("the answer is 32 B"), "{wrong}");
    assert!(!wrong.contains("Why:"), "{wrong}");
    assert!(wrong.contains("Hint 1: Since Pascal a 128-byte cache line"));
    assert!(wrong.contains("hint 1 is shown above"));

    // The second shows the answer and the worked reason.
    h.type_text("16").press(KeyCode::Enter);
    let second = h.screen();
    assert!(
        h.row_containing("Not quite")
            .contains("you answered 16 B; the answer is 32 B."),
        "{second}"
    );
    assert!(second.contains("Why: A sector is 32 bytes"));

    h.ctrl('t');
    let hint = h.screen();
    insta::assert_snapshot!("exercise_hint_80x24", hint);
    assert!(hint.contains("Hint 1: Since Pascal a 128-byte cache line"));
    assert!(hint.contains("Hint 2:"));

    h.type_text("32 bytes").press(KeyCode::Enter);
    let right = h.screen();
    insta::assert_snapshot!("exercise_right_80x24", right);
    assert!(h.row_containing("✓").contains("Correct — 32 B."));

    // Right only after the wrong-answer feedback showed 32 B: seen, not solved. The hint shown
    // with the first verdict counts as a hint.
    let progress = h.app.progress.of("l1-sector-size");
    assert_eq!(
        (
            progress.attempts,
            progress.solved,
            progress.seen,
            progress.hints_used
        ),
        (3, false, true, 2)
    );
    assert!(h.row_containing("counts as seen").contains("seen"));
    assert_eq!(
        progress.history,
        vec!["64".to_string(), "16".to_string(), "32 bytes".to_string()]
    );
    assert!(progress.seconds > 0);

    h.press(KeyCode::Char('q'));
    let back = h.screen();
    assert!(back.contains("◦ How big is a sector?"), "{back}");
    assert!(back.contains("0/12"));
    // On a later visit, answered right without being shown: solved.
    h.press(KeyCode::Enter);
    h.type_text("32 B").press(KeyCode::Enter);
    assert!(h.app.progress.of("l1-sector-size").solved);
    h.press(KeyCode::Char('q'));
    let back = h.screen();
    assert!(back.contains("✓ How big is a sector?"), "{back}");
    assert!(back.contains("1/12"));
    h.press(KeyCode::Char('q'));
    assert!(h.screen().contains("Resume: How big is a sector? (L1)"));
    h.press(KeyCode::Char('q'));
    assert!(h.app.quit);
}

#[test]
fn choice_and_ordering_are_answered_with_keys() {
    let mut h = Harness::new(80, 24);
    h.app.update(Action::OpenExercise("l1-scope".into()));
    let choice = h.screen();
    insta::assert_snapshot!("exercise_choice_80x24", choice);
    // The options are in the variant's own order: find a wrong one and the right one.
    let (options, correct) = choice_key(&h);
    let wrong = (0..options.len()).find(|i| !correct.contains(i)).unwrap();
    for _ in 0..wrong {
        h.press(KeyCode::Down);
    }
    h.press(KeyCode::Enter);
    let shown = |i: usize| format!("{}) {}", warpdrill::ladder::variant::letter(i), options[i]);
    assert!(h.row_containing("Not quite").contains(&shown(wrong)));
    let digit = char::from_digit(correct[0] as u32 + 1, 10).unwrap();
    h.press(KeyCode::Char(digit)).press(KeyCode::Enter);
    assert!(h.row_containing("Correct").contains(&shown(correct[0])));
    assert_eq!(options[correct[0]], "global memory");

    h.app
        .update(Action::OpenExercise("l1-latency-ladder".into()));
    let ordering = h.screen();
    insta::assert_snapshot!("exercise_ordering_80x24", ordering);
    // Arrange into the right order by moving items with J/K.
    let correct = match &h.app.screen() {
        warpdrill::app::Screen::Exercise(state) => match state.variant() {
            Ok(v) => match &v.key {
                warpdrill::ladder::AnswerKey::Ordering { correct, .. } => correct.clone(),
                _ => unreachable!(),
            },
            Err(e) => panic!("{e}"),
        },
        _ => unreachable!(),
    };
    for (target, item) in correct.iter().enumerate() {
        let position = match h.app.screen() {
            warpdrill::app::Screen::Exercise(state) => {
                state.order().iter().position(|i| i == item).unwrap()
            }
            _ => unreachable!(),
        };
        // Select the item, then move it up to its place.
        for _ in 0..8 {
            h.press(KeyCode::Up);
        }
        for _ in 0..position {
            h.press(KeyCode::Down);
        }
        for _ in target..position {
            h.press(KeyCode::Char('K'));
        }
    }
    h.press(KeyCode::Enter);
    assert!(
        h.row_containing("Correct")
            .contains("registers → shared memory → L1 cache")
    );
}

#[test]
fn search_help_topic_and_card() {
    let mut h = Harness::new(80, 24);
    h.press(KeyCode::Char('/')).type_text("tile33");
    let search = h.screen();
    insta::assert_snapshot!("search_80x24", search);
    assert!(search.contains("Why does `float tile[32][33]` fix the column read?"));
    h.press(KeyCode::Down).press(KeyCode::Enter);
    let card = h.screen();
    assert!(card.contains("Card · Shared-memory banks"), "{card}");
    h.press(KeyCode::Char(' '));
    let revealed = h.screen();
    insta::assert_snapshot!("card_80x24", revealed);
    assert!(revealed.contains("gcd(33, 32) = 1"));
    h.press(KeyCode::Char('t'));
    let topic = h.screen();
    insta::assert_snapshot!("topic_80x24", topic);
    assert!(topic.contains("Simply: A canteen with 32 serving counters."));
    h.press(KeyCode::Char('?'));
    let help = h.screen();
    insta::assert_snapshot!("help_80x24", help);
    assert!(help.contains("Ctrl-P"));
    h.press(KeyCode::Esc);
    assert!(!h.screen().contains("Everywhere"));
    h.ctrl('p');
    let palette = h.screen();
    assert!(
        palette.contains(" results") && !palette.contains("result(s)"),
        "{palette}"
    );
}

#[test]
fn every_screen_at_the_minimum_size_and_below() {
    let mut h = Harness::new(ui::MIN_WIDTH, ui::MIN_HEIGHT);
    insta::assert_snapshot!("home_60x20", h.screen());
    h.press(KeyCode::Char('L'));
    insta::assert_snapshot!("ladder_60x20", h.screen());
    h.press(KeyCode::Enter).type_text("9").press(KeyCode::Enter);
    let exercise = h.screen();
    insta::assert_snapshot!("exercise_wrong_60x20", exercise);
    assert!(exercise.contains("Not quite"));
    h.app.update(Action::OpenExercise("l3-limiter".into()));
    let choice = h.screen();
    insta::assert_snapshot!("exercise_choice_60x20", choice);
    // Every option, whatever letter the seed gives it, stays visible.
    assert!(
        ["a) ", "b) ", "c) ", "d) "]
            .iter()
            .all(|letter| choice.contains(letter))
            && choice.contains("the maximum blocks per SM"),
        "options stay visible:\n{choice}"
    );

    let mut tiny = Harness::new(40, 12);
    let small = tiny.screen();
    insta::assert_snapshot!("too_small_40x12", small);
    assert!(small.contains("Terminal too small"));
    // Growing the window brings the app back.
    tiny.terminal.backend_mut().resize(80, 24);
    tiny.terminal
        .resize(ratatui::layout::Rect::new(0, 0, 80, 24))
        .unwrap();
    assert!(
        tiny.screen()
            .contains("▸ Learn: lessons with live diagrams")
    );
}

#[test]
fn levels_open_topic_by_topic_unless_unlocked() {
    let mut h = Harness::new(80, 24);
    // L2: the topics whose first rung it is are open; coalescing waits for L1 · coalescing.
    h.press(KeyCode::Char('L')).press(KeyCode::Right);
    let l2 = h.screen();
    insta::assert_snapshot!("ladder_l2_80x24", l2);
    assert!(l2.contains("Opens once L1 · coalescing is mastered: 0/2 solved."));
    assert!(l2.contains("✓ solved · ◦ saw the answer · • tried, not solved"));
    // L3: every topic waits for its L2.
    h.press(KeyCode::Right);
    let locked = h.screen();
    insta::assert_snapshot!("ladder_locked_80x24", locked);
    assert!(locked.contains("Opens once L2 · coalescing is mastered"));
    h.press(KeyCode::Enter);
    assert!(
        h.screen().contains("Locked"),
        "a locked level does not open"
    );
    h.press(KeyCode::Char('u'));
    let open = h.screen();
    assert!(open.contains("AoS against SoA"));
    assert!(h.app.progress.unlock_all);
}

#[test]
fn explanation_answers_are_marked_by_the_learner() {
    let mut h = Harness::new(80, 24);
    h.app
        .update(Action::OpenExercise("l3-misalign-cheap".into()));
    // The exact part comes first.
    assert!(h.screen().contains("Part 1 of 2 (exact)"));
    h.type_text("5 sectors").press(KeyCode::Enter);
    let part = h.screen();
    assert!(part.contains("Correct — 5 sectors."), "{part}");
    assert!(h.screen().contains("▸ Part 2 of 2: the explanation"));
    h.type_text("32-byte sectors: one extra sector, Kepler used 128-byte lines")
        .press(KeyCode::Enter);
    let graded = h.screen();
    insta::assert_snapshot!("exercise_explain_80x24", graded);
    assert!(graded.contains("Model answer:"));
    assert!(graded.contains("y = I had it"));
    assert!(
        !graded.lines().last().unwrap_or("").contains("y simply"),
        "y means one thing here"
    );
    assert_eq!(
        h.app.progress.of("l3-misalign-cheap").attempts,
        0,
        "the mark is the attempt"
    );
    h.press(KeyCode::Char('y'));
    let progress = h.app.progress.of("l3-misalign-cheap");
    assert_eq!((progress.attempts, progress.solved), (1, true));
}

#[test]
fn an_explanation_with_no_idea_cannot_be_marked_had_and_a_wrong_part_keeps_it_unsolved() {
    let mut h = Harness::new(80, 24);
    h.app
        .update(Action::OpenExercise("l3-misalign-cheap".into()));
    h.type_text("4").press(KeyCode::Enter);
    assert!(h.row_containing("Not quite").contains("5 sectors"));
    h.type_text("idk").press(KeyCode::Enter);
    let screen = h.screen();
    assert!(
        screen.contains("No idea of the model answer found"),
        "{screen}"
    );
    assert!(!screen.lines().last().unwrap_or("").contains("I had it"));
    h.press(KeyCode::Char('y'));
    let refused = h.screen();
    assert!(refused.contains("cannot be marked"), "{refused}");
    assert_eq!(h.app.progress.of("l3-misalign-cheap").attempts, 0);
    h.press(KeyCode::Char('n'));
    let progress = h.app.progress.of("l3-misalign-cheap");
    assert_eq!((progress.attempts, progress.solved), (1, false));
}

#[test]
fn letters_pick_options_and_fixed_facts_have_no_new_numbers() {
    let mut h = Harness::new(80, 24);
    h.app.update(Action::OpenExercise("l1-scope".into()));
    let (_, correct) = choice_key(&h);
    let letter = warpdrill::ladder::variant::letter(correct[0]);
    h.press(KeyCode::Char(letter)).press(KeyCode::Enter);
    assert!(
        h.row_containing("Correct")
            .contains(&format!("{letter}) global memory"))
    );
    h.press(KeyCode::Char('r'));
    assert!(
        h.screen().contains("no numbers to change"),
        "{}",
        h.screen()
    );
    // Show me waits for a first answer.
    h.app
        .update(Action::OpenExercise("l2-stride-sectors".into()));
    h.ctrl('o');
    assert!(h.screen().contains("Show me opens after your first answer"));
    assert!(matches!(
        h.app.screen(),
        warpdrill::app::Screen::Exercise(_)
    ));
}

#[test]
fn no_color_draws_without_colours() {
    use ratatui::style::Color;
    let uncoloured = |h: &mut Harness| {
        h.screen();
        let buffer = h.terminal.backend().buffer();
        buffer
            .content
            .iter()
            .all(|cell| cell.fg == Color::Reset && cell.bg == Color::Reset)
    };
    let mut coloured = Harness::new(80, 24);
    assert!(!uncoloured(&mut coloured), "the default theme uses colour");
    let mut plain = Harness::new(80, 24);
    plain.app.theme = Theme::new(true);
    assert!(uncoloured(&mut plain));
    plain
        .press(KeyCode::Char('L'))
        .press(KeyCode::Enter)
        .type_text("1")
        .press(KeyCode::Enter);
    assert!(uncoloured(&mut plain), "feedback reads without colour too");
    assert!(plain.screen().contains("✗ Not quite"));
}

#[test]
fn progress_is_saved_and_a_damaged_file_is_kept() {
    let root = tempfile::tempdir().expect("a temporary folder");
    let dir = root.path().join("data");
    let opened = Store::open(&dir, 1);
    let mut h = Harness::with(80, 24, opened.progress, Some(opened.store));
    h.app.update(Action::OpenExercise("l1-sector-size".into()));
    h.type_text("32").press(KeyCode::Enter);
    let saved = std::fs::read_to_string(dir.join("progress.ron")).unwrap();
    assert!(
        saved.contains("\"l1-sector-size\"") && saved.contains("solved: true"),
        "{saved}"
    );

    drop(h); // the first tutor closes, letting go of the data directory
    std::fs::write(dir.join("progress.ron"), "this is not progress").unwrap();
    let reopened = Store::open(&dir, 99);
    let mut h = Harness::with(80, 24, reopened.progress, Some(reopened.store));
    h.app.notices.extend(reopened.notice);
    let home = h.screen();
    assert!(home.contains("damaged"), "{home}");
    assert_eq!(
        std::fs::read_to_string(dir.join("progress.ron.damaged-99")).unwrap(),
        "this is not progress"
    );
}

#[test]
fn the_other_screens_at_the_minimum_size() {
    use warpdrill::ui::calculators::Tab;
    let opens: Vec<(&str, Vec<Action>)> = vec![
        ("search", vec![Action::OpenSearch]),
        ("help", vec![Action::OpenLadder(None), Action::ToggleHelp]),
        ("topic", vec![Action::OpenTopic("occupancy".into())]),
        ("lessons", vec![Action::OpenLessons]),
        ("lesson", vec![Action::OpenLesson("coalescing".into())]),
        ("card", vec![Action::OpenCard("occ-48-regs".into())]),
        (
            "explorer",
            vec![Action::OpenExplorer(warpdrill::ui::ExplorerSetup::default())],
        ),
        ("occupancy", vec![Action::OpenCalculators(Tab::Occupancy)]),
        ("tiling", vec![Action::OpenCalculators(Tab::Tiling)]),
        ("roofline", vec![Action::OpenCalculators(Tab::Roofline)]),
        (
            "ordering",
            vec![Action::OpenExercise("l3-order-patterns".into())],
        ),
    ];
    for (name, actions) in opens {
        let mut h = Harness::new(ui::MIN_WIDTH, ui::MIN_HEIGHT);
        for action in actions {
            h.app.update(action);
        }
        let text = h.screen();
        assert!(!text.contains("Terminal too small"), "{name}");
        insta::assert_snapshot!(format!("{name}_60x20"), text);
    }
    let mut h = Harness::new(ui::MIN_WIDTH, ui::MIN_HEIGHT);
    h.app
        .update(Action::OpenExplorer(warpdrill::ui::ExplorerSetup::default()));
    assert!(
        h.screen().contains("sectors 4"),
        "the explorer's numbers fit at the minimum size"
    );
}

#[test]
fn skipped_content_is_reported_on_home() {
    let mut content = Content::builtin();
    content.problems.push(warpdrill::content::Diagnostic {
        file: "exercises/mine.ron".into(),
        line: 3,
        column: 7,
        message: "unknown topic `x`".into(),
    });
    let app = App::new(
        content,
        Progress::default(),
        None,
        Theme::new(false),
        Arc::new(FakeClock::at_secs(0)),
        Box::new(|| 1),
    );
    let mut h = Harness::new(80, 24);
    h.app = app;
    let home = h.screen();
    assert!(
        home.contains("1 content problem in exercises/mine.ron"),
        "{home}"
    );
    assert!(
        home.contains("exercises/mine.ron:3:7: unknown topic `x`"),
        "{home}"
    );
}

mod no_key_sequence_panics {
    use super::*;
    use proptest::prelude::*;

    fn key() -> impl Strategy<Value = KeyEvent> {
        let codes = prop_oneof![
            Just(KeyCode::Enter),
            Just(KeyCode::Esc),
            Just(KeyCode::Up),
            Just(KeyCode::Down),
            Just(KeyCode::Left),
            Just(KeyCode::Right),
            Just(KeyCode::Tab),
            Just(KeyCode::BackTab),
            Just(KeyCode::Backspace),
            Just(KeyCode::Delete),
            Just(KeyCode::Home),
            Just(KeyCode::End),
            Just(KeyCode::PageDown),
            Just(KeyCode::PageUp),
            Just(KeyCode::F(1)),
            proptest::char::range(' ', '~').prop_map(KeyCode::Char),
            Just(KeyCode::Char('µ')),
        ];
        let modifiers = prop_oneof![
            4 => Just(KeyModifiers::NONE),
            1 => Just(KeyModifiers::SHIFT),
            1 => Just(KeyModifiers::CONTROL),
        ];
        (codes, modifiers).prop_map(|(code, modifiers)| KeyEvent::new(code, modifiers))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        #[test]
        fn random_keys_at_random_sizes(
            start in 0usize..120,
            keys in proptest::collection::vec(key(), 1..120),
            width in 20u16..140,
            height in 8u16..50,
        ) {
            let mut h = Harness::new(width, height);
            // Start anywhere: an exercise of any kind, the explorer, a calculator, or Home.
            let exercises: Vec<String> = h.app.content.exercises.iter().map(|e| e.id.clone()).collect();
            // Every screen is a start: the first draws pick exercises, the next ones the other screens
            // (counted from the number of exercises, so new exercises never crowd them out).
            use warpdrill::ui::calculators::Tab;
            let others = [
                Action::OpenExplorer(warpdrill::ui::ExplorerSetup::default()),
                Action::OpenCalculators(Tab::Occupancy),
                Action::OpenCalculators(Tab::Tiling),
                Action::OpenCalculators(Tab::Roofline),
                Action::OpenSearch,
                Action::OpenLadder(None),
                Action::OpenTopic("banks".into()),
                Action::OpenCard("occ-48-regs".into()),
                Action::ToggleHelp,
            ];
            let pick = start % (exercises.len() + others.len() + 1);
            match pick.checked_sub(exercises.len()) {
                None => h.app.update(Action::OpenExercise(exercises[pick].clone())),
                Some(other) => {
                    if let Some(action) = others.get(other) {
                        h.app.update(action.clone());
                    }
                }
            }
            for key in keys {
                // Ctrl-C quits; keep exploring instead.
                if key.code == KeyCode::Char('c') && key.modifiers == KeyModifiers::CONTROL {
                    continue;
                }
                h.key(key);
                if h.app.quit {
                    h.app.quit = false;
                }
                let _ = h.screen();
            }
        }
    }
}

/// A new learner's Home keeps its getting-started text whole at 80×24 in every language: the
/// content counts give way first, then the five level rows fold into one.
#[test]
fn home_keeps_getting_started_whole_at_80x24_in_every_language() {
    use warpdrill::i18n::Lang;
    for lang in Lang::ALL {
        let mut app = crate::common::app();
        app.set_lang(lang);
        let shown = crate::common::screen(&app, 80, 24);
        let flat: String = shown
            .lines()
            .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
            .collect::<Vec<_>>()
            .join(" ");
        let last = warpdrill::t!(lang, "home-start-keys");
        let tail: String = last
            .split_whitespace()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            flat.contains(&tail),
            "{lang}: `{tail}` is cut off:\n{shown}"
        );
        assert!(
            flat.contains("L5"),
            "{lang}: the levels are still shown:\n{shown}"
        );
    }
}
