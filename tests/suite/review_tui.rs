//! The review and statistics screens, driven through the whole app: keys in, the log's states and the
//! screen out; snapshots at 80×24 and at the minimum size.

use crate::common;

use common::{app_with_review, press, press_with, screen, type_text};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use warpdrill::app::{Action, Screen};
use warpdrill::srs::Phase;

fn review_state(app: &warpdrill::app::App) -> &warpdrill::ui::review::State {
    match app.screen() {
        Screen::Review(state) => state,
        other => panic!("not on review: {other:?}"),
    }
}

#[test]
fn home_offers_review_with_the_count_due_and_statistics() {
    let (app, _) = app_with_review();
    let home = screen(&app, 80, 24);
    assert!(home.contains("Review (0 due · 20 new)"), "{home}");
    assert!(home.contains("Statistics"), "{home}");
}

#[test]
fn a_session_reveals_rates_undoes_and_ends_with_a_summary() {
    let (mut app, clock) = app_with_review();
    app.update(Action::OpenReview);
    let first = review_state(&app).card().expect("a new card");
    let front = screen(&app, 80, 24);
    insta::assert_snapshot!("review_front_80x24", front);
    insta::assert_snapshot!("review_front_60x20", screen(&app, 60, 20));
    press(&mut app, KeyCode::Char(' '));
    assert!(review_state(&app).revealed());
    let back = screen(&app, 80, 24);
    assert!(back.contains("1 Again · 1m"), "{back}");
    assert!(back.contains("3 Good · 10m"), "{back}");
    insta::assert_snapshot!("review_back_80x24", back);
    insta::assert_snapshot!("review_back_60x20", screen(&app, 60, 20));
    clock.advance(4000);
    press(&mut app, KeyCode::Char(' ')); // Space = Good after the reveal
    let deck = app.review.as_ref().unwrap();
    assert_eq!(deck.state(first).unwrap().phase, Phase::Learning);
    assert_eq!(deck.state(first).unwrap().step, 1);
    let second = review_state(&app).card().expect("the next new card");
    assert_ne!(second, first);
    press(&mut app, KeyCode::Char('3')); // not revealed yet: nothing happens
    assert_eq!(review_state(&app).card(), Some(second));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('1'));
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Char('u'));
    let deck = app.review.as_ref().unwrap();
    assert_eq!(deck.state(first).unwrap().phase, Phase::New, "undone twice");
    assert_eq!(deck.state(second).unwrap().phase, Phase::New);
    assert_eq!(review_state(&app).card(), Some(first));
    // Bury one, suspend another; then finish today's new cards.
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Char('s'));
    for _ in 0..200 {
        let state = review_state(&app);
        if state.card().is_none() {
            break;
        }
        if state.typing() {
            type_text(&mut app, "0");
            press(&mut app, KeyCode::Enter);
        } else {
            press(&mut app, KeyCode::Enter);
        }
        press(&mut app, KeyCode::Char('4'));
    }
    assert!(review_state(&app).card().is_none());
    let done = screen(&app, 80, 24);
    assert!(done.contains("Done for now."), "{done}");
    assert!(done.contains("Reviewed 20 cards"), "{done}");
    insta::assert_snapshot!("review_done_80x24", done);
    insta::assert_snapshot!("review_done_60x20", screen(&app, 60, 20));
}

#[test]
fn a_drill_card_is_typed_graded_and_rated_with_the_proposal() {
    let (mut app, clock) = app_with_review();
    let deck = app.review.as_mut().unwrap();
    deck.set_topic_filter(Some("banks".into()));
    // Leave only the drill cards new: the others are suspended.
    let drills: Vec<usize> = (0..deck.cards().len())
        .filter(|&i| deck.cards()[i].topic == "banks")
        .collect();
    for &i in &drills {
        if deck.cards()[i].drill.is_none() {
            deck.suspend(i).unwrap();
        }
    }
    app.update(Action::OpenReview);
    let state = review_state(&app);
    let card = state.card().expect("a drill card");
    assert!(state.typing());
    let answer = state.drill().unwrap().variant.key.typed();
    insta::assert_snapshot!("review_drill_80x24", screen(&app, 80, 24));
    // q, s and / are typed, not taken as keys.
    type_text(&mut app, "qs/");
    assert_eq!(review_state(&app).drill().unwrap().input.text(), "qs/");
    for _ in 0..3 {
        press(&mut app, KeyCode::Backspace);
    }
    press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert_eq!(review_state(&app).drill().unwrap().attempt.hints(), 1);
    clock.advance(5000);
    type_text(&mut app, &answer);
    press(&mut app, KeyCode::Enter);
    let graded = screen(&app, 80, 24);
    assert!(
        graded.contains("Proposed: Hard"),
        "right after a hint: {graded}"
    );
    insta::assert_snapshot!("review_drill_graded_80x24", graded);
    insta::assert_snapshot!("review_drill_graded_60x20", screen(&app, 60, 20));
    press(&mut app, KeyCode::Char('3')); // the learner changes Hard to Good
    let deck = app.review.as_ref().unwrap();
    let (record, _) = deck.records().last().unwrap();
    assert_eq!(record.card, deck.cards()[card].id);
    assert_eq!(record.rating, Some(3));
    assert_eq!(record.correct, Some(true));
    assert_eq!(record.hints, Some(1));
    assert!(record.seed.is_some() && record.answer.as_deref() == Some(answer.as_str()));
}

#[test]
fn a_wrong_ladder_answer_brings_the_topic_forward() {
    let (mut app, clock) = app_with_review();
    let deck = app.review.as_mut().unwrap();
    let card = deck.card("bank-gcd").unwrap();
    deck.rate(card, warpdrill::srs::Rating::Easy, 1000, None)
        .unwrap();
    assert!(deck.state(card).unwrap().due_day > deck.today());
    clock.advance(60_000);
    app.update(Action::OpenExercise("l2-bank-stride".into()));
    type_text(&mut app, "1000");
    press(&mut app, KeyCode::Enter);
    let deck = app.review.as_ref().unwrap();
    assert_eq!(deck.state(card).unwrap().due_day, deck.today());
}

#[test]
fn statistics_show_the_forecast_and_the_heatmap() {
    let (mut app, clock) = app_with_review();
    let deck = app.review.as_mut().unwrap();
    for i in 0..12 {
        deck.rate(i, warpdrill::srs::Rating::Easy, 1000, None)
            .unwrap();
        clock.advance(86_400_000 / 3);
    }
    app.update(Action::OpenStats);
    let stats = screen(&app, 80, 24);
    assert!(stats.contains("due in the next 30 days"), "{stats}");
    assert!(stats.contains("Mon "), "{stats}");
    insta::assert_snapshot!("stats_80x24", stats);
    insta::assert_snapshot!("stats_60x20", screen(&app, 60, 20));
}
