//! The review, statistics and lab screens in Korean and Hinglish: snapshots at 80×24, and at 60×20
//! no double-width character cut in half, the borders intact and every rating key on screen.

use crate::common;

use common::{NOW, app, app_with_review, buffer, press, press_with, screen, type_text};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use warpdrill::app::{Action, App, Screen};
use warpdrill::content::Content;
use warpdrill::i18n::Lang;
use warpdrill::lab::{Entry, Lab, LabSession, plan};
use warpdrill::ladder::generate;

/// Columns a cell's symbol takes.
fn columns(symbol: &str) -> usize {
    ratatui::text::Span::raw(symbol).width()
}

/// Every double-width character has its partner cell beside it on the same row (a blank the
/// terminal skips), and the right border of the screen's block is whole on every row it spans.
fn assert_whole(app: &App, width: u16, height: u16, what: &str) {
    let buf = buffer(app, width, height);
    let text = screen(app, width, height);
    let mut wide = 0;
    for y in 0..height {
        for x in 0..width {
            let symbol = buf[(x, y)].symbol();
            if columns(symbol) == 2 {
                wide += 1;
                assert!(
                    x + 1 < width,
                    "{what}: a double-width `{symbol}` in the last column of row {y}:\n{text}"
                );
                let partner = buf[(x + 1, y)].symbol();
                assert!(
                    partner.trim().is_empty(),
                    "{what}: `{symbol}` at {x},{y} is followed by `{partner}`, not its blank half:\n{text}"
                );
            }
        }
    }
    assert!(wide > 0, "{what}: no Korean on screen:\n{text}");
    // The body block: its top-right corner on the first body row, `│` below it to the bottom.
    let right = width - 1;
    let top = (0..height)
        .find(|&y| buf[(right, y)].symbol() == "┐")
        .unwrap_or_else(|| panic!("{what}: no block corner:\n{text}"));
    let bottom = (top..height)
        .find(|&y| buf[(right, y)].symbol() == "┘")
        .unwrap_or_else(|| panic!("{what}: no block bottom:\n{text}"));
    for y in top + 1..bottom {
        assert_eq!(
            buf[(right, y)].symbol(),
            "│",
            "{what}: the right border is broken on row {y}:\n{text}"
        );
    }
}

fn review_state(app: &App) -> &warpdrill::ui::review::State {
    match app.screen() {
        Screen::Review(state) => state,
        other => panic!("not on review: {other:?}"),
    }
}

/// An app reviewing in `lang`, on the first new card.
fn reviewing(lang: Lang) -> (App, std::sync::Arc<warpdrill::srs::FakeClock>) {
    let (mut app, clock) = app_with_review();
    app.set_lang(lang);
    app.update(Action::OpenReview);
    (app, clock)
}

/// An app reviewing only the drill cards of `banks`, in `lang`: the drill is answered right after
/// a hint.
fn drilled(lang: Lang) -> App {
    let (mut app, clock) = app_with_review();
    app.set_lang(lang);
    let deck = app.review.as_mut().unwrap();
    deck.set_topic_filter(Some("banks".into()));
    for i in 0..deck.cards().len() {
        if deck.cards()[i].topic == "banks" && deck.cards()[i].drill.is_none() {
            deck.suspend(i).unwrap();
        }
    }
    app.update(Action::OpenReview);
    let answer = review_state(&app)
        .drill()
        .expect("a drill card")
        .variant
        .key
        .typed();
    press_with(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    clock.advance(5000);
    type_text(&mut app, &answer);
    press(&mut app, KeyCode::Enter);
    app
}

/// An app on the statistics after twelve cards were rated over four days, in `lang`.
fn statistics(lang: Lang) -> App {
    let (mut app, clock) = app_with_review();
    app.set_lang(lang);
    let deck = app.review.as_mut().unwrap();
    for i in 0..12 {
        deck.rate(i, warpdrill::srs::Rating::Easy, 1000, None)
            .unwrap();
        clock.advance(86_400_000 / 3);
    }
    app.update(Action::OpenStats);
    app
}

#[test]
fn the_review_screen_speaks_korean() {
    let (mut app, _) = reviewing(Lang::Ko);
    let front = screen(&app, 80, 24);
    assert!(
        front.contains("Space나 Enter를 누르면 답이 보입니다."),
        "{front}"
    );
    assert!(front.contains("Space/Enter 답 보기"), "{front}");
    insta::assert_snapshot!("review_front_ko_80x24", front);
    press(&mut app, KeyCode::Char(' '));
    let back = screen(&app, 80, 24);
    for button in [
        "1 다시 · 1분",
        "2 어려움 · 6분",
        "3 좋음 · 10분",
        "4 쉬움 · ",
    ] {
        assert!(back.contains(button), "{button}:\n{back}");
    }
    assert!(!back.contains("Again") && !back.contains("10m"), "{back}");
    insta::assert_snapshot!("review_back_ko_80x24", back);
    let graded = screen(&drilled(Lang::Ko), 80, 24);
    assert!(graded.contains("제안: 어려움"), "{graded}");
    insta::assert_snapshot!("review_drill_graded_ko_80x24", graded);
}

#[test]
fn the_review_screen_speaks_hinglish() {
    let (mut app, _) = reviewing(Lang::HiLatn);
    let front = screen(&app, 80, 24);
    assert!(front.contains("Answer dekhne ke liye"), "{front}");
    insta::assert_snapshot!("review_front_hi_80x24", front);
    press(&mut app, KeyCode::Char(' '));
    let back = screen(&app, 80, 24);
    assert!(back.contains("1 Phir se · 1m"), "{back}");
    insta::assert_snapshot!("review_back_hi_80x24", back);
    let graded = screen(&drilled(Lang::HiLatn), 80, 24);
    assert!(graded.contains("Suggested: Mushkil"), "{graded}");
    insta::assert_snapshot!("review_drill_graded_hi_80x24", graded);
}

#[test]
fn statistics_speak_korean_and_hinglish() {
    let ko = screen(&statistics(Lang::Ko), 80, 24);
    assert!(ko.contains("통계 · 2027년 1월 19일"), "{ko}");
    assert!(ko.contains("연속 4일"), "{ko}");
    for day in ["월 ", "화 ", "수 ", "목 ", "금 ", "토 ", "일 "] {
        assert!(
            ko.lines().any(|l| l.starts_with(&format!("│{day}"))),
            "{day}:\n{ko}"
        );
    }
    insta::assert_snapshot!("stats_ko_80x24", ko);
    let hi = screen(&statistics(Lang::HiLatn), 80, 24);
    assert!(hi.contains("streak 4 din"), "{hi}");
    insta::assert_snapshot!("stats_hi_80x24", hi);
}

#[test]
fn at_60x20_korean_is_never_cut_and_every_rating_key_shows() {
    let (mut app, _) = reviewing(Lang::Ko);
    assert_whole(&app, 60, 20, "review front");
    press(&mut app, KeyCode::Char(' '));
    assert_whole(&app, 60, 20, "review back");
    let back = screen(&app, 60, 20);
    let buttons = back.lines().nth(17).unwrap_or_default();
    for button in ["1 다시", "2 어려움", "3 좋음", "4 쉬움"] {
        assert!(buttons.contains(button), "{button}:\n{back}");
    }
    let app = drilled(Lang::Ko);
    assert_whole(&app, 60, 20, "drill graded");
    let graded = screen(&app, 60, 20);
    for key in ["1 ", "2 ", "3 ", "4 "] {
        assert!(
            graded.lines().nth(17).unwrap_or_default().contains(key),
            "{key}:\n{graded}"
        );
    }
    assert_whole(&statistics(Lang::Ko), 60, 20, "statistics");
}

#[test]
fn the_same_numbers_in_every_language() {
    let digits = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (mut en, _) = reviewing(Lang::En);
    let (mut ko, _) = reviewing(Lang::Ko);
    press(&mut en, KeyCode::Char(' '));
    press(&mut ko, KeyCode::Char(' '));
    let row = |app: &App| {
        screen(app, 80, 24)
            .lines()
            .nth(21)
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        digits(&row(&en)),
        digits(&row(&ko)),
        "{}\n{}",
        row(&en),
        row(&ko)
    );
}

const LAB: &str = include_str!("../../labs/coalescing-and-banks.ron");

fn lab_in(lang: Lang) -> App {
    let lab = Lab::parse("lab.ron", LAB).expect("a valid lab");
    let student = Entry {
        student: "alice".to_string(),
        ..Entry::default()
    };
    let content = Content::builtin();
    let items = plan(&lab, &content, &student, "lab.ron", LAB).expect("a plan");
    let right = generate(content.exercise(&items[0].exercise).unwrap(), items[0].seed)
        .unwrap()
        .key
        .typed();
    let session = LabSession::in_memory(lab, student, items, NOW);
    let mut app = app();
    app.set_lang(lang);
    app.start_lab(session);
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "999999");
    press(&mut app, KeyCode::Enter);
    let wrong = screen(&app, 80, 24);
    assert!(
        !wrong.contains("Not right") || lang == Lang::En,
        "the lab's own feedback is translated:\n{wrong}"
    );
    type_text(&mut app, &right);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('g'));
    app
}

#[test]
fn a_lab_speaks_korean_and_hinglish() {
    let ko = lab_in(Lang::Ko);
    let overview = screen(&ko, 80, 24);
    assert!(overview.contains("실습 단계"), "{overview}");
    assert!(overview.contains("맞음 · "), "{overview}");
    insta::assert_snapshot!("lab_overview_ko_80x24", overview);
    assert_whole(&ko, 60, 20, "lab overview");
    let mut ko = ko;
    press(&mut ko, KeyCode::Char('s'));
    let confirm = screen(&ko, 80, 24);
    assert!(confirm.contains("실습을 제출할까요?"), "{confirm}");
    press(&mut ko, KeyCode::Char('s'));
    let end = screen(&ko, 80, 24);
    assert!(end.contains("제출 완료"), "{end}");
    insta::assert_snapshot!("lab_end_ko_80x24", end);
    assert_whole(&ko, 60, 20, "lab end");
    let hi = screen(&lab_in(Lang::HiLatn), 80, 24);
    assert!(hi.contains("Lab ke steps"), "{hi}");
    insta::assert_snapshot!("lab_overview_hi_80x24", hi);
}
