//! Per-topic mastery as a learner meets it: the ladder opens topic by topic with a notice, the
//! ladder explains its marks and what opens a locked exercise, "Practise what you missed" brings
//! back the exercises answered wrong on new numbers, and a wrong answer brings forward the cards of
//! its skill only.

use crate::common::{self, press, screen, type_text};
use ratatui::crossterm::event::KeyCode;
use std::sync::Arc;
use warpdrill::app::{Action, App, Screen};
use warpdrill::clock::FakeClock;
use warpdrill::content::Content;
use warpdrill::content::schema::Level;
use warpdrill::i18n::Lang;
use warpdrill::progress::Progress;
use warpdrill::srs::Kind;
use warpdrill::ui::Theme;

/// An app on Home whose every new variant gets the next seed (1, 2, 3, …).
fn app() -> App {
    let mut next = 0u64;
    App::new(
        Content::builtin(),
        Progress::default(),
        None,
        Theme::new(false),
        Arc::new(FakeClock::at_secs(common::NOW)),
        Box::new(move || {
            next += 1;
            next
        }),
    )
}

/// The variant shown: its exercise id, seed-dependent answer and the answer typed right.
fn shown(app: &App) -> (String, String) {
    let Screen::Exercise(state) = app.screen() else {
        panic!("an exercise is shown: {:?}", app.screen())
    };
    let variant = state.variant().expect("a variant");
    (state.id().to_string(), variant.key.typed())
}

/// Answers the exercise shown (a typed answer): right, or wrong (a 9 put before the number).
fn answer(app: &mut App, right: bool) {
    let (_, typed) = shown(app);
    let given = if right { typed } else { format!("9{typed}") };
    type_text(app, &given);
    press(app, KeyCode::Enter);
}

/// The L1 exercises of `topic` that take a typed number or text, in ladder order.
fn l1_of(app: &App, topic: &str) -> Vec<String> {
    use warpdrill::content::schema::AnswerSpec;
    app.content
        .level(Level::L1)
        .filter(|e| e.topic == topic)
        .filter(|e| {
            matches!(
                e.answer,
                AnswerSpec::Number { .. } | AnswerSpec::Text { .. }
            )
        })
        .map(|e| e.id.clone())
        .collect()
}

#[test]
fn two_solved_l1_coalescing_exercises_open_l2_coalescing_once_with_a_notice() {
    let mut app = app();
    let coalescing = l1_of(&app, "coalescing");
    // Under the old rule any three solved L1 exercises opened all of L2: other topics' do not now.
    let others = [l1_of(&app, "banks"), l1_of(&app, "occupancy")].concat();
    assert!(others.len() >= 3, "{others:?}");
    for id in others {
        app.update(Action::OpenExercise(id));
        answer(&mut app, true);
    }
    let first_l2_coalescing = app
        .content
        .level(Level::L2)
        .find(|e| e.topic == "coalescing")
        .expect("an L2 coalescing exercise")
        .id
        .clone();
    assert!(
        !warpdrill::ladder::unlock::exercise_open(
            &app.board(),
            app.content
                .exercise(&first_l2_coalescing)
                .expect("it exists")
        ),
        "three exercises of other topics solved do not open L2 · coalescing"
    );
    app.update(Action::OpenExercise(coalescing[0].clone()));
    answer(&mut app, true);
    assert_eq!(app.flash, None, "1 of 2 solved: nothing opens yet");
    app.update(Action::OpenExercise(coalescing[1].clone()));
    answer(&mut app, true);
    let notice = app.flash.clone().expect("a notice");
    assert!(
        notice.contains("L2 · Global-memory coalescing is open"),
        "{notice}"
    );
    let footer = screen(&app, 80, 24);
    assert!(
        footer
            .lines()
            .last()
            .is_some_and(|l| l.contains("L2 · Global-memory coalescing is open")),
        "{footer}"
    );
    assert!(
        app.progress
            .opened
            .get("coalescing")
            .is_some_and(|l| l.contains(&Level::L2))
    );
    // Shown once: the next key clears it, and solving more does not say it again.
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.flash, None);
    app.update(Action::OpenExercise(coalescing[2].clone()));
    answer(&mut app, true);
    assert!(
        app.flash
            .as_deref()
            .is_none_or(|f| !f.contains("coalescing")),
        "{:?}",
        app.flash
    );
    // The ladder at L2 lists coalescing as open, and opens its exercises.
    app.update(Action::Home);
    app.update(Action::OpenLadder(Some(Level::L2)));
    let ladder = screen(&app, 100, 30);
    assert!(ladder.contains("Topics at L2"), "{ladder}");
    let l2_coalescing = app
        .content
        .level(Level::L2)
        .filter(|e| e.topic == "coalescing")
        .count();
    let row = format!("coalescing 0/{l2_coalescing}   open");
    assert!(ladder.lines().any(|l| l.contains(&row)), "{ladder}");
    // AMD's L1 was not touched: its L2 stays locked.
    let l2_amd = app
        .content
        .level(Level::L2)
        .filter(|e| e.topic == "amd")
        .count();
    let row = format!("amd        0/{l2_amd}   locked");
    assert!(ladder.lines().any(|l| l.contains(&row)), "{ladder}");
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.screen(), Screen::Exercise(state) if state.id() == first_l2_coalescing),
        "{:?}",
        app.screen()
    );
}

#[test]
fn a_locked_exercise_says_what_opens_it_and_the_marks_are_explained() {
    let mut app = app();
    app.update(Action::OpenLadder(Some(Level::L2)));
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("✓ solved · ◦ saw the answer · • tried, not solved"),
        "{shown}"
    );
    assert!(
        shown.contains("Opens once L1 · coalescing is mastered: 0/2 solved."),
        "{shown}"
    );
    assert!(
        shown.contains("Nothing to practise"),
        "the practice line says so: {shown}"
    );
    press(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.screen(), Screen::Ladder(_)),
        "a locked exercise does not open"
    );
    // L3 is wholly locked for a new learner: each topic says what opens it.
    press(&mut app, KeyCode::Char('3'));
    let l3 = screen(&app, 100, 30);
    assert!(l3.contains("Locked"), "{l3}");
    assert!(
        l3.contains("Opens once L2 · banks is mastered: 0/2 solved."),
        "{l3}"
    );
    // `u` still opens everything.
    press(&mut app, KeyCode::Char('u'));
    assert!(app.level_open(Level::L5));
    // In Korean and Hinglish too.
    for (lang, legend) in [
        (Lang::Ko, "✓ 풂 · ◦ 답을 보고 맞힘"),
        (Lang::HiLatn, "◦ answer dekh ke sahi"),
    ] {
        app.set_lang(lang);
        let shown = screen(&app, 100, 30);
        assert!(shown.contains(legend), "{lang:?}: {shown}");
    }
}

#[test]
fn practise_what_you_missed_rerolls_the_wrong_ones_interleaved_until_solved() {
    let mut app = app();
    // Nothing answered wrong: the entry says so and opens nothing.
    app.update(Action::OpenPractice);
    assert!(matches!(app.screen(), Screen::Home(_)));
    assert!(
        app.flash
            .as_deref()
            .is_some_and(|f| f.starts_with("Nothing to practise")),
        "{:?}",
        app.flash
    );
    let home = screen(&app, 80, 24);
    assert!(
        home.contains("Practise what you missed — nothing to practise yet"),
        "{home}"
    );
    // Two coalescing exercises and one banks exercise answered wrong.
    let coalescing = l1_of(&app, "coalescing");
    let banks = l1_of(&app, "banks");
    let mut seeds = std::collections::BTreeMap::new();
    for id in [&coalescing[0], &coalescing[1], &banks[0]] {
        app.update(Action::OpenExercise(id.clone()));
        answer(&mut app, false);
        seeds.insert(id.clone(), app.progress.of(id).last_seed);
    }
    app.update(Action::Home);
    let home = screen(&app, 80, 24);
    assert!(home.contains("Practise what you missed (3)"), "{home}");
    assert!(home.contains("Mastery: "), "{home}");
    // From Home: the first of them, on new numbers.
    app.update(Action::OpenPractice);
    let mut order = Vec::new();
    for _ in 0..3 {
        let (id, _) = shown(&app);
        assert_ne!(
            app.progress.of(&id).last_seed,
            seeds[&id],
            "{id} comes back on new numbers"
        );
        order.push(app.content.exercise(&id).expect("exists").topic.clone());
        answer(&mut app, true);
        assert!(!app.progress.of(&id).missed(), "solved: out of the set");
        press(&mut app, KeyCode::Enter); // on to the next
    }
    assert_eq!(
        order,
        ["coalescing", "banks", "coalescing"],
        "never two of one topic in a row while another has one left"
    );
    assert!(
        matches!(app.screen(), Screen::Home(_)),
        "all practised: back where it started"
    );
    assert!(
        app.flash
            .as_deref()
            .is_some_and(|f| f.starts_with("All practised")),
        "{:?}",
        app.flash
    );
    assert!(warpdrill::ladder::practice::queue(&app.content, &app.progress).is_empty());
    // From the ladder, `p` says there is nothing left.
    app.update(Action::OpenLadder(None));
    press(&mut app, KeyCode::Char('p'));
    assert!(matches!(app.screen(), Screen::Ladder(_)));
    assert!(
        app.flash
            .as_deref()
            .is_some_and(|f| f.starts_with("Nothing to practise")),
        "{:?}",
        app.flash
    );
}

#[test]
fn a_wrong_answer_brings_forward_the_cards_of_its_skill_not_the_whole_topic() {
    let (mut app, _clock) = common::app_with_review();
    app.progress.unlock_all = true;
    let lapses = |app: &App| {
        app.review
            .as_ref()
            .expect("a deck")
            .records()
            .filter(|(r, _)| r.kind == Kind::Lapse)
            .map(|(r, _)| r.card.clone())
            .collect::<Vec<_>>()
    };
    app.update(Action::OpenExercise("l2-stride-sectors".into()));
    answer(&mut app, false);
    let mut brought = lapses(&app);
    brought.sort();
    let mut skill: Vec<String> = app
        .content
        .cards
        .iter()
        .filter(|c| c.skill.as_deref() == Some("stride-sectors"))
        .map(|c| c.id.clone())
        .collect();
    skill.sort();
    assert_eq!(brought, skill);
    let topic = app
        .content
        .cards
        .iter()
        .filter(|c| c.topic == "coalescing")
        .count();
    assert!(brought.len() < topic, "{} of {topic}", brought.len());
    // An exercise with neither a skill nor a drill card: at most 3 of its topic.
    let before = lapses(&app).len();
    let unlinked = app
        .content
        .exercises
        .iter()
        .find(|e| {
            e.skill.is_none()
                && e.topic == "occupancy"
                && !app
                    .content
                    .cards
                    .iter()
                    .any(|c| c.drill.as_ref() == Some(&e.id))
                && matches!(
                    e.answer,
                    warpdrill::content::schema::AnswerSpec::Number { .. }
                )
        })
        .expect("an unlinked numeric occupancy exercise")
        .id
        .clone();
    app.update(Action::OpenExercise(unlinked));
    answer(&mut app, false);
    let added = lapses(&app).len() - before;
    assert!((1..=3).contains(&added), "{added}");
}
