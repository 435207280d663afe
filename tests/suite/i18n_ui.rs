//! The tutor in Hinglish and Korean: the core screens fit and align at 80×24 and 60×20 (Korean
//! takes two columns a syllable), their snapshots, and the language setting on Home.

use crate::common;

use common::{NOW, app, press, type_text};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use warpdrill::app::App;
use warpdrill::i18n::Lang;
use warpdrill::ui::text_width;

/// The app drawn at `width` × `height`: the frame's buffer, as the app drew it (a terminal
/// backend would not show a border drawn over the second half of a wide character; the frame does).
fn draw(app: &mut App, width: u16, height: u16) -> Buffer {
    app.resize(width, height);
    let area = Rect::new(0, 0, width, height);
    let mut buffer = Buffer::empty(area);
    warpdrill::app::render(app, area, &mut buffer);
    buffer
}

/// The buffer as text, one line per row, trailing spaces cut; a double-width character's blank
/// partner cell is left out, so the text reads as the terminal shows it.
fn text(buffer: &Buffer) -> String {
    let width = usize::from(buffer.area.width);
    buffer
        .content
        .chunks(width)
        .map(|row| {
            let mut line = String::new();
            let mut skip = false;
            for cell in row {
                if std::mem::take(&mut skip) {
                    continue;
                }
                line.push_str(cell.symbol());
                skip = text_width(cell.symbol()) == 2;
            }
            line.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every double-width character is whole: it fits in its row, and the cell after it is its blank
/// partner (a border or another character drawn there would have cut it in half).
fn assert_no_cut_characters(buffer: &Buffer, what: &str) {
    let width = usize::from(buffer.area.width);
    for (y, row) in buffer.content.chunks(width).enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if text_width(cell.symbol()) == 2 {
                let partner = row.get(x + 1).map(|c| c.symbol());
                assert!(
                    matches!(partner, Some(" " | "")),
                    "{what}: `{}` at ({x}, {y}) is cut (partner {partner:?}):\n{}",
                    cell.symbol(),
                    text(buffer)
                );
            }
        }
    }
}

/// The footer's entries (`key action`), as drawn in the last row.
fn footer(buffer: &Buffer) -> String {
    text(buffer).lines().last().unwrap_or_default().to_string()
}

/// How many of the screen's keys the footer shows, each whole; the footer never shows half an entry.
fn footer_entries(app: &App, buffer: &Buffer) -> usize {
    let line = footer(buffer);
    let keys = app.screen().component().keys(app.lang);
    let shown = line.split(" · ").count();
    for hint in keys.iter().take(shown) {
        let entry = format!("{} {}", hint.key, hint.action);
        assert!(line.contains(&entry), "`{entry}` whole in `{line}`");
    }
    shown
}

fn in_lang(lang: Lang) -> App {
    let mut app = app();
    app.set_lang(lang);
    app
}

/// Home, the ladder, an exercise answered wrong, and help over it, in `lang` at `width` × `height`:
/// each screen's buffer with the number of footer entries shown.
/// Also the number of keys the screen has.
fn tour(lang: Lang, width: u16, height: u16) -> Vec<(&'static str, Buffer, usize, usize)> {
    let mut app = in_lang(lang);
    let mut out = Vec::new();
    let mut shot = |app: &mut App, name| {
        let buffer = draw(app, width, height);
        let entries = footer_entries(app, &buffer);
        let all = app.screen().component().keys(lang).len();
        out.push((name, buffer, entries, all));
    };
    shot(&mut app, "home");
    press(&mut app, KeyCode::Char('L'));
    shot(&mut app, "ladder");
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "64");
    press(&mut app, KeyCode::Enter);
    shot(&mut app, "exercise");
    press(&mut app, KeyCode::F(1));
    let buffer = draw(&mut app, width, height);
    out.push(("help", buffer, 1, 1));
    out
}

#[test]
fn korean_screens_fit_whole_at_80x24_and_60x20() {
    for (width, height) in [(80, 24), (60, 20)] {
        let english = tour(Lang::En, width, height);
        for lang in [Lang::Ko, Lang::HiLatn] {
            let shots = tour(lang, width, height);
            for ((name, buffer, entries, all), (_, _, english_entries, _)) in
                shots.iter().zip(&english)
            {
                let what = format!("{name} in {lang} at {width}×{height}");
                assert_no_cut_characters(buffer, &what);
                if lang == Lang::Ko {
                    // Korean words are short enough that the footer keeps every key English keeps.
                    assert!(
                        entries >= english_entries,
                        "{what}: {entries} footer keys, English {english_entries}: {}",
                        footer(buffer)
                    );
                }
                // Home and the ladder show every key at 80 columns (the exercise has more keys
                // than fit in any language; help lists them all).
                if width == 80 && matches!(*name, "home" | "ladder") {
                    assert_eq!(entries, all, "{what}: every key in the footer");
                }
            }
        }
    }
}

#[test]
fn the_korean_footer_and_help_speak_korean_with_the_same_keys() {
    let shots = tour(Lang::Ko, 80, 24);
    let home = &shots[0].1;
    assert_eq!(
        footer(home),
        "↑↓/jk 이동 · Enter 열기 · / 검색 · ? 도움 · q 종료 · t 언어"
    );
    let help = text(&shots[3].1);
    assert!(help.contains("어디서나"), "{help}");
    assert!(help.contains("? 또는 F1     이 도움말"), "{help}");
    assert!(footer(&shots[3].1).starts_with("Esc/?/q 도움말 닫기"));
    let exercise = text(&shots[2].1);
    // The first wrong answer keeps the answer back and shows a hint, in Korean.
    assert!(
        exercise.contains("아쉽다 — 입력한 답: 64 B.") && !exercise.contains("답은 32 B"),
        "{exercise}"
    );
    assert!(exercise.contains("힌트 1"), "{exercise}");
}

#[test]
fn snapshots_of_home_and_an_exercise_with_feedback() {
    for lang in [Lang::Ko, Lang::HiLatn] {
        let shots = tour(lang, 80, 24);
        let name = match lang {
            Lang::Ko => "ko",
            _ => "hi_latn",
        };
        insta::assert_snapshot!(format!("home_{name}_80x24"), text(&shots[0].1));
        insta::assert_snapshot!(format!("exercise_wrong_{name}_80x24"), text(&shots[2].1));
    }
    // Right, in Korean.
    let mut app = in_lang(Lang::Ko);
    app.update(warpdrill::app::Action::OpenExercise(
        "l1-sector-size".into(),
    ));
    type_text(&mut app, "32 B");
    press(&mut app, KeyCode::Enter);
    let right = text(&draw(&mut app, 80, 24));
    insta::assert_snapshot!("exercise_right_ko_80x24", right);
    assert!(right.contains("✓ 정답 — 32 B."), "{right}");
}

#[test]
fn a_unit_question_is_asked_in_the_language() {
    let mut app = in_lang(Lang::Ko);
    app.update(warpdrill::app::Action::OpenExercise(
        "l1-sector-size".into(),
    ));
    type_text(&mut app, "32 bits");
    press(&mut app, KeyCode::Enter);
    let screen = text(&draw(&mut app, 80, 24));
    assert!(screen.contains("소문자 b는 bit다: bits"), "{screen}");
}

/// A settings file of its own for each test (in a folder not yet made), and the guard that removes
/// it.
fn settings_file(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let root = tempfile::tempdir().expect("a temporary folder");
    let path = root.path().join(name).join("settings.ron");
    (root, path)
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn the_language_key_on_home_switches_at_once_and_is_remembered() {
    let (_path_guard, path) = settings_file("switch");
    let mut app = app();
    app.settings = Some(path.clone());
    assert!(footer(&draw(&mut app, 80, 24)).contains("t language"));
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(app.lang, Lang::HiLatn);
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(app.lang, Lang::Ko);
    let screen = text(&draw(&mut app, 80, 24));
    assert!(
        screen.contains("언어: 한국어"),
        "the flash says so:\n{screen}"
    );
    assert!(screen.contains("▸ 배우기"), "{screen}");
    assert!(screen.contains("  Ladder — 문제 L1부터 L5까지"), "{screen}");
    assert!(
        screen.contains("  언어: 한국어"),
        "the Home entry says so:\n{screen}"
    );

    // A new session with the setting speaks it.
    let (lang, notice) =
        warpdrill::cli::tui::starting_lang(None, Some(&path), NOW, no_env).expect("a language");
    assert_eq!((lang, notice), (Lang::Ko, None));
    let mut again = in_lang(lang);
    assert!(text(&draw(&mut again, 80, 24)).contains("시작하기"));

    // WARPDRILL_LANG beats the setting, and --lang beats both.
    let variable = |var: &str| (var == "WARPDRILL_LANG").then(|| "hi-Latn".to_string());
    let chosen = warpdrill::cli::tui::starting_lang(None, Some(&path), NOW, variable);
    assert_eq!(chosen.map(|c| c.0), Ok(Lang::HiLatn));
    let chosen = warpdrill::cli::tui::starting_lang(Some(Lang::En), Some(&path), NOW, variable);
    assert_eq!(chosen.map(|c| c.0), Ok(Lang::En));

    // Enter on the Home entry cycles too: back to English.
    let entries = warpdrill::ui::home::items(&again.ctx()).len();
    for _ in 0..entries {
        press(&mut again, KeyCode::Down);
    }
    again.settings = Some(path.clone());
    press(&mut again, KeyCode::Enter);
    assert_eq!(again.lang, Lang::En);
    let (lang, _) = warpdrill::cli::tui::starting_lang(None, Some(&path), NOW, no_env).unwrap();
    assert_eq!(lang, Lang::En);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_damaged_settings_file_is_kept_aside_and_reported() {
    let (_path_guard, path) = settings_file("damaged");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "(lang: \"ko\"").unwrap();
    let locale = |var: &str| (var == "LANG").then(|| "ko_KR.UTF-8".to_string());
    let (lang, notice) =
        warpdrill::cli::tui::starting_lang(None, Some(&path), NOW, locale).expect("a language");
    assert_eq!(lang, Lang::Ko, "the locale decides without the file");
    let notice = notice.expect("a notice");
    assert!(
        notice.contains("읽을 수 없는 설정 파일") && notice.contains(".damaged-"),
        "{notice}"
    );
    assert!(
        !path.exists(),
        "kept aside, so the next save does not overwrite it"
    );
    // The notice shows on Home, and the language still switches and saves.
    let mut app = in_lang(lang);
    app.notices.push(notice);
    app.settings = Some(path.clone());
    assert_no_cut_characters(&draw(&mut app, 60, 20), "home with a notice");
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(app.lang, Lang::En);
    assert_eq!(warpdrill::app::settings::peek(&path), Some(Lang::En));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn the_too_small_message_is_in_the_language() {
    let mut app = in_lang(Lang::Ko);
    let screen = text(&draw(&mut app, 40, 12));
    assert!(screen.contains("터미널이 너무 작다"), "{screen}");
    assert_no_cut_characters(&draw(&mut app, 40, 12), "too small");
}

#[test]
fn an_item_shown_in_english_is_marked_so() {
    use warpdrill::content::i18n::ItemKind;
    use warpdrill::ui::Action;
    let mut app = in_lang(Lang::Ko);
    app.update(Action::OpenExercise("l1-sector-size".into()));
    let translated = text(&draw(&mut app, 80, 24));
    assert!(!translated.contains("영어 원문"), "{translated}");
    // The same exercise with its translation missing: its title says it is shown in English.
    app.content.fallbacks.insert(
        (ItemKind::Exercise, "l1-sector-size".into()),
        vec!["title".into()],
    );
    let english = text(&draw(&mut app, 80, 24));
    let title = english.lines().next().unwrap_or_default();
    assert!(title.contains("· 영어 원문"), "{english}");
}
