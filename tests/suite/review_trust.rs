//! Review as a careful learner checks it: what loading the log found is said on the review screen
//! itself, a second tutor names the lock, suspending, burying and undoing say what they did and
//! count, the summary agrees with the statistics, Home tells due from new, Esc ends with the
//! summary, and a used new-card limit is explained.

use crate::common;

use common::{app_with_review, press, screen, type_text};
use ratatui::crossterm::event::KeyCode;
use std::sync::Arc;
use warpdrill::app::{Action, Screen};
use warpdrill::clock::FakeClock;
use warpdrill::i18n::Lang;
use warpdrill::progress::Store;
use warpdrill::srs::store::{Access, LOG_FILE};

fn review_state(app: &warpdrill::app::App) -> &warpdrill::ui::review::State {
    match app.screen() {
        Screen::Review(state) => state,
        other => panic!("not on review: {other:?}"),
    }
}

/// An app whose deck is opened from `dir` as the tutor opens it.
fn app_on(dir: &std::path::Path, access: Access) -> warpdrill::app::App {
    let clock = Arc::new(FakeClock::at_secs(common::NOW));
    let mut app = common::app_at(clock);
    let flags = warpdrill::cli::review::ReviewFlags {
        review_config: Some(common::isolated_config()),
        ..Default::default()
    };
    let opened =
        warpdrill::cli::review::build_deck(Some(dir), &app.content, &flags, access, app.clock())
            .expect("a deck");
    app.notices.extend(opened.notices);
    app.review = Some(opened.deck);
    app
}

/// Rates whatever is shown Good (a drill: answered first) until `n` ratings are made.
fn rate_good(app: &mut warpdrill::app::App, n: usize) {
    for _ in 0..n {
        if review_state(app).typing() {
            type_text(app, "0");
            press(app, KeyCode::Enter);
        } else {
            press(app, KeyCode::Enter);
        }
        press(app, KeyCode::Char('3'));
    }
}

#[test]
fn a_damaged_log_found_when_review_opens_is_said_on_the_review_screen() {
    let (_guard, dir) = common::temp_dir("damaged-review");
    std::fs::write(
        dir.join(LOG_FILE),
        "{\"time\":1,\"card\":\"bank-gcd\",\"kind\":\"suspend\"}\nnot a record\n",
    )
    .unwrap();
    let mut app = app_on(&dir, Access::Write);
    // Straight into review, as `warpdrill review` starts: Home is never seen.
    app.start_on(Action::OpenReview);
    let shown = screen(&app, 100, 30);
    assert!(shown.contains("damaged"), "{shown}");
    assert!(shown.contains("line 2"), "{shown}");
    // A torn last line too.
    let (_guard, dir) = common::temp_dir("torn-review");
    std::fs::write(
        dir.join(LOG_FILE),
        "{\"time\":1,\"card\":\"bank-gcd\",\"kind\":\"suspend\"}\n{\"time\":2,\"ca",
    )
    .unwrap();
    let mut app = app_on(&dir, Access::Write);
    app.start_on(Action::OpenReview);
    let shown = screen(&app, 100, 30);
    assert!(shown.contains("cut off"), "{shown}");
}

#[test]
fn a_second_tutor_names_the_lock_not_a_damaged_log() {
    let (_guard, dir) = common::temp_dir("locked-review");
    let first = Store::open(&dir, common::NOW);
    assert!(first.store.saves());
    let second = Store::open(&dir, common::NOW);
    assert!(second.store.busy());
    let access = warpdrill::cli::tui::review_access(Some(&second.store), Lang::En);
    let mut app = app_on(&dir, access);
    app.start_on(Action::OpenReview);
    let shown = screen(&app, 100, 30);
    assert!(shown.contains("holds its lock"), "{shown}");
    press(&mut app, KeyCode::Enter);
    if review_state(&app).typing() {
        type_text(&mut app, "0");
        press(&mut app, KeyCode::Enter);
    }
    press(&mut app, KeyCode::Char('3'));
    let shown = screen(&app, 100, 30);
    assert!(shown.contains("Not saved"), "{shown}");
    assert!(shown.contains("lock"), "{shown}");
    assert!(!shown.contains("damaged"), "{shown}");
    assert!(!dir.join(LOG_FILE).exists(), "nothing written");
    drop(first);
}

#[test]
fn suspend_bury_and_undo_say_what_they_did_and_the_summary_agrees_with_statistics() {
    let (mut app, _clock) = app_with_review();
    app.update(Action::OpenReview);
    rate_good(&mut app, 3);
    press(&mut app, KeyCode::Char('s'));
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Suspended"), "{shown}");
    press(&mut app, KeyCode::Char('b'));
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Buried until tomorrow"), "{shown}");
    // Undoing the burial takes back the burial, not a rating.
    press(&mut app, KeyCode::Char('u'));
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("burial is taken back"), "{shown}");
    assert_eq!(review_state(&app).reviewed(), 3);
    press(&mut app, KeyCode::Char('b'));
    rate_good(&mut app, 2);
    // Esc ends the session with its summary, not straight back.
    press(&mut app, KeyCode::Esc);
    let summary = screen(&app, 80, 24);
    assert!(summary.contains("Reviewed 5 cards"), "{summary}");
    assert!(summary.contains("suspended 1 · buried 1"), "{summary}");
    let deck = app.review.as_ref().unwrap();
    let stats = warpdrill::srs::stats::compute(deck);
    assert_eq!(stats.reviews_today, 5, "the summary and Statistics agree");
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.screen(), Screen::Home(_)), "then back");
}

#[test]
fn home_tells_due_cards_from_new_ones() {
    let (app, _) = app_with_review();
    let home = screen(&app, 80, 24);
    assert!(home.contains("Review (0 due · 20 new)"), "{home}");
}

#[test]
fn a_used_new_card_limit_is_explained_with_the_flag_to_learn_more() {
    let (mut app, _) = app_with_review();
    let deck = app.review.as_mut().unwrap();
    deck.set_topic_filter(Some("banks".into()));
    deck.set_new_per_day(2);
    app.update(Action::OpenReview);
    for _ in 0..2 {
        rate_good(&mut app, 1);
    }
    // Both in learning now; rate them out of it.
    let mut guard = 0;
    while review_state(&app).card().is_some() && guard < 20 {
        if review_state(&app).typing() {
            type_text(&mut app, "0");
            press(&mut app, KeyCode::Enter);
        } else {
            press(&mut app, KeyCode::Enter);
        }
        press(&mut app, KeyCode::Char('4'));
        guard += 1;
    }
    let done = screen(&app, 100, 30);
    // The text as read, its wrapped lines joined.
    let read = done
        .lines()
        .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(read.contains("Done for now."), "{done}");
    assert!(
        read.contains("limit of 2 new cards is used; 18 new cards wait"),
        "{done}"
    );
    assert!(
        read.contains("warpdrill review --topic banks --new 10"),
        "{done}"
    );
}

#[test]
fn a_first_day_learner_meets_a_drill_card_of_a_topic() {
    let (mut app, _) = app_with_review();
    let deck = app.review.as_mut().unwrap();
    deck.set_topic_filter(Some("banks".into()));
    deck.set_new_per_day(4);
    app.update(Action::OpenReview);
    let mut drills = 0;
    for _ in 0..4 {
        let state = review_state(&app);
        let Some(card) = state.card() else { break };
        if app.review.as_ref().unwrap().cards()[card].drill.is_some() {
            drills += 1;
        }
        rate_good(&mut app, 1);
    }
    assert!(drills > 0, "no drill among the first new cards of banks");
}

#[test]
fn stats_json_and_text_have_the_calibration_of_fixed_and_drill_cards() {
    use warpdrill::srs::clock::{Clock, DAY_MS, SystemClock};
    let (_guard, dir) = common::temp_dir("calibration");
    // Card 0 (a fixed card) rated, then reviewed again days later.
    let system = SystemClock;
    let now = system.now_ms();
    let clock = Arc::new(FakeClock::new(
        now - 30 * DAY_MS,
        system.utc_offset_secs(now),
    ));
    let content = warpdrill::content::Content::builtin();
    let fixed = content
        .cards
        .iter()
        .position(|c| c.drill.is_none())
        .unwrap();
    let mut deck = warpdrill::srs::Deck::open(
        &content.cards,
        &dir,
        warpdrill::srs::config::Settings::default(),
        Box::new(warpdrill::srs::FsrsScheduler::new(&[]).unwrap()),
        clock.clone(),
    );
    deck.rate(fixed, warpdrill::srs::Rating::Easy, 4000, None)
        .unwrap();
    let due = deck.state(fixed).unwrap().due_day;
    clock.set(deck.settings().day.start_of(deck.clock(), due) + 3_600_000);
    deck.rate(fixed, warpdrill::srs::Rating::Good, 3000, None)
        .unwrap();
    drop(deck);
    let out = common::warpdrill()
        .arg("--data-dir")
        .arg(&dir)
        .args(["stats", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fixed = &stats["calibration"]["fixed"];
    assert_eq!(fixed["reviews"], 1, "{stats}");
    assert_eq!(fixed["actual"], 1.0);
    let predicted = fixed["predicted"].as_f64().unwrap();
    assert!(predicted > 0.5 && predicted < 1.0, "{fixed}");
    assert!(fixed["log_loss"].as_f64().unwrap() > 0.0);
    assert_eq!(fixed["bins"].as_array().unwrap().len(), 1);
    assert_eq!(stats["calibration"]["drill"]["reviews"], 0);
    assert!(stats["calibration"]["drill"]["rmse"].is_null());
    let out = common::warpdrill()
        .arg("--data-dir")
        .arg(&dir)
        .arg("stats")
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("fixed cards: 1 reviews"), "{shown}");
    assert!(
        shown.contains("drill cards: no reviews a day or more apart yet"),
        "{shown}"
    );
}
