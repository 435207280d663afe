//! The explorer and the calculators in Hinglish and Korean: snapshots at 80×24, columns that
//! still line up with Korean labels (measured in terminal columns), and no double-width character
//! cut in half at 60×20.

use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use warpdrill::app::{Action, App};
use warpdrill::engine::{Arch, KernelConfig, WarpAccess};
use warpdrill::i18n::Lang;
use warpdrill::ladder::ShowMe;
use warpdrill::ui::calculators::Tab;
use warpdrill::ui::explorer::Space;

use crate::common;
use common::{app, buffer, press, type_text};

/// The explorer on `access` in `lang`.
fn explore(lang: Lang, space: Space, access: WarpAccess) -> App {
    let mut app = app();
    app.lang = lang;
    app.update(Action::OpenExplorer(warpdrill::ui::ExplorerSetup::new(
        Arch::default_arch(),
        space,
        &access,
    )));
    app
}

/// The occupancy calculator on 256 threads × 48 registers (sm_90) in `lang`.
fn occupancy(lang: Lang) -> App {
    let mut app = app();
    app.lang = lang;
    app.update(Action::ShowMe(ShowMe::Occupancy {
        arch: Arch::default_arch(),
        config: KernelConfig::new(256, 48),
    }));
    app
}

/// The screen as a terminal shows it, one line per row, trailing spaces cut: a double-width
/// character takes its two columns, so the blank cell behind it is not printed again (what is
/// aligned here is aligned on screen).
fn screen(app: &App, width: u16, height: u16) -> String {
    let buf = buffer(app, width, height);
    (0..height)
        .map(|y| {
            let mut line = String::new();
            let mut x = 0;
            while x < width {
                let symbol = buf[(x, y)].symbol();
                line.push_str(symbol);
                x += u16::try_from(warpdrill::ui::diagram::width(symbol).max(1)).unwrap_or(1);
            }
            line.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every double-width character whose second column was drawn over (or lies past the edge):
/// `(x, y, symbol)`. A whole wide character leaves a blank cell behind it.
fn cut_wide_characters(buf: &Buffer) -> Vec<(u16, u16, String)> {
    let area = buf.area;
    let mut cut = Vec::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let symbol = buf[(x, y)].symbol();
            if warpdrill::ui::diagram::width(symbol) < 2 {
                continue;
            }
            let partner_blank = x + 1 < area.right() && buf[(x + 1, y)].symbol().trim().is_empty();
            if !partner_blank {
                cut.push((x, y, symbol.to_string()));
            }
        }
    }
    cut
}

/// Columns (terminal cells) where `needle` starts in each of `rows` of the screen.
fn column_of(buf: &Buffer, y: u16, needle: &str) -> Option<u16> {
    let row: Vec<&str> = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
    let first = needle.chars().next()?.to_string();
    (0..row.len()).find_map(|x| {
        let mut text = String::new();
        let mut at = x;
        while at < row.len() && text.chars().count() < needle.chars().count() {
            text.push_str(row[at]);
            // The blank partner of a wide character is not text.
            at += warpdrill::ui::diagram::width(row[at]).max(1);
        }
        (row[x] == first && text == needle).then_some(x as u16)
    })
}

#[test]
fn the_explorer_speaks_korean_and_hinglish_at_80x24() {
    for (lang, tag) in [(Lang::Ko, "ko"), (Lang::HiLatn, "hi_latn")] {
        let global = explore(lang, Space::Global, WarpAccess::affine(4, 1, 0));
        insta::assert_snapshot!(
            format!("explorer_default_{tag}_80x24"),
            screen(&global, 80, 24)
        );
        let banks = explore(lang, Space::Shared, WarpAccess::affine(4, 2, 0));
        insta::assert_snapshot!(
            format!("explorer_shared_stride2_{tag}_80x24"),
            screen(&banks, 80, 24)
        );
    }
    let ko = screen(
        &explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 1, 0)),
        80,
        24,
    );
    assert!(ko.contains("파라미터"), "{ko}");
    assert!(ko.contains("sector 4개"), "counters in Korean: {ko}");
    let hi = screen(
        &explore(Lang::HiLatn, Space::Global, WarpAccess::affine(4, 1, 0)),
        80,
        24,
    );
    assert!(hi.contains("kyun:"), "{hi}");
    assert!(hi.contains("4 sectors"), "{hi}");
}

#[test]
fn the_occupancy_calculator_speaks_korean_and_hinglish_at_80x24() {
    insta::assert_snapshot!("occupancy_ko_80x24", screen(&occupancy(Lang::Ko), 80, 24));
    insta::assert_snapshot!(
        "occupancy_hi_latn_80x24",
        screen(&occupancy(Lang::HiLatn), 80, 24)
    );
    let ko = screen(&occupancy(Lang::Ko), 80, 24);
    assert!(ko.contains("block 크기"), "{ko}");
    assert!(ko.contains("제한"), "{ko}");
}

#[test]
fn the_parameter_values_line_up_under_korean_labels() {
    let app = explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 1, 0));
    let buf = buffer(&app, 80, 24);
    // The panel's rows (arch, 메모리, elem, 패턴, stride, offset, base, lanes, 단위): every value
    // starts in the same terminal column, whatever the width of its label.
    let values = [
        "sm_90",
        "global",
        "4 B",
        "affine",
        "1 elem",
        "0 elem",
        "0 B",
        "전체 (32)",
    ];
    let columns: Vec<Option<u16>> = (1..1 + values.len() as u16)
        .zip(values)
        .map(|(y, value)| column_of(&buf, y, value))
        .collect();
    assert!(
        columns.iter().all(|c| c.is_some()),
        "{columns:?}\n{}",
        screen(&app, 80, 24)
    );
    assert!(
        columns.windows(2).all(|pair| pair[0] == pair[1]),
        "values start at columns {columns:?}:\n{}",
        screen(&app, 80, 24)
    );
}

#[test]
fn diagram_columns_are_the_same_in_every_language() {
    // The pictures are numbers and marks: with Korean titles and labels around them, the bank
    // grid and the segment rows must sit in exactly the cells they take in English.
    for (space, access, rows) in [
        (Space::Shared, WarpAccess::affine(4, 2, 0), 1..5u16),
        (Space::Global, WarpAccess::affine(4, 2, 0), 1..8u16),
    ] {
        let en = buffer(&explore(Lang::En, space, access.clone()), 80, 24);
        for lang in [Lang::Ko, Lang::HiLatn] {
            let other = buffer(&explore(lang, space, access.clone()), 80, 24);
            for y in rows.clone() {
                let cells = |buf: &Buffer| -> Vec<String> {
                    (27..79).map(|x| buf[(x, y)].symbol().to_string()).collect()
                };
                assert_eq!(cells(&en), cells(&other), "row {y} in {lang}");
            }
        }
    }
}

#[test]
fn nothing_korean_is_cut_in_half_at_60x20() {
    let mut screens: Vec<(&str, App)> = vec![
        (
            "global",
            explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 2, 0)),
        ),
        (
            "far",
            explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 1024, 0)),
        ),
        (
            "shared",
            explore(Lang::Ko, Space::Shared, WarpAccess::affine(4, 32, 0)),
        ),
        (
            "doubles",
            explore(Lang::Ko, Space::Shared, WarpAccess::affine(8, 1, 0)),
        ),
        ("occupancy", occupancy(Lang::Ko)),
    ];
    let mut sweep = explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 2, 0));
    press(&mut sweep, KeyCode::Char('w'));
    screens.push(("sweep", sweep));
    let mut presets = explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 1, 0));
    press(&mut presets, KeyCode::Char('p'));
    screens.push(("presets", presets));
    let mut refused = explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 1, 0));
    press(&mut refused, KeyCode::Down);
    press(&mut refused, KeyCode::Enter);
    type_text(&mut refused, "nonsense");
    press(&mut refused, KeyCode::Enter);
    screens.push(("refused", refused));
    let mut heat = occupancy(Lang::Ko);
    press(&mut heat, KeyCode::Char('m'));
    screens.push(("heat map", heat));
    for tab in [Tab::Tiling, Tab::Roofline] {
        let mut calculators = app();
        calculators.lang = Lang::Ko;
        calculators.update(Action::OpenCalculators(tab));
        screens.push(("calculator", calculators));
    }
    for (name, app) in &screens {
        for (width, height) in [(60, 20), (80, 24)] {
            let buf = buffer(app, width, height);
            let cut = cut_wide_characters(&buf);
            assert!(
                cut.is_empty(),
                "{name} at {width}×{height}: {cut:?}\n{}",
                screen(app, width, height)
            );
        }
    }
    // The screens really are Korean (a check that found nothing wide would prove nothing).
    let text = screen(&screens[0].1, 60, 20);
    assert!(text.contains("파라미터"), "{text}");
}

#[test]
fn the_cut_check_finds_a_wide_character_drawn_over() {
    let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 6, 1));
    buf.set_string(0, 0, "한국", ratatui::style::Style::default());
    assert!(cut_wide_characters(&buf).is_empty());
    buf.set_string(3, 0, "│", ratatui::style::Style::default());
    assert_eq!(cut_wide_characters(&buf), vec![(2, 0, "국".to_string())]);
    // A wide character in the last column has no second column at all.
    buf[(5, 0)].set_symbol("말");
    assert_eq!(cut_wide_characters(&buf).len(), 2);
}

#[test]
fn a_refused_value_is_explained_in_the_learners_language() {
    let mut app = explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 1, 0));
    // The second row, the memory space: a word that is neither global nor shared.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "nonsense");
    press(&mut app, KeyCode::Enter);
    let text = screen(&app, 80, 24);
    assert!(text.contains("`nonsense`: global 또는"), "{text}");
}

#[test]
fn the_footer_speaks_the_language_of_the_screen() {
    let app = explore(Lang::Ko, Space::Global, WarpAccess::affine(4, 1, 0));
    let text = screen(&app, 80, 24);
    let footer = text.lines().last().unwrap_or_default();
    assert!(footer.starts_with("s/S stride ±"), "{footer}");
    assert!(footer.contains("preset"), "{footer}");
    let en = screen(
        &explore(Lang::En, Space::Global, WarpAccess::affine(4, 1, 0)),
        80,
        24,
    );
    assert!(en.lines().last().unwrap_or_default().contains("p presets"));
    let calc = screen(&occupancy(Lang::HiLatn), 80, 24);
    assert!(
        calc.lines()
            .last()
            .unwrap_or_default()
            .contains("value type karo"),
        "{calc}"
    );
}

/// Every preset of the explorer, in every language, at three sizes: each row ends in its box's right
/// border (nothing ran over it) and no double-width character is cut.
#[test]
fn every_preset_keeps_its_right_border_in_every_language() {
    let presets = warpdrill::ui::explorer::PRESETS;
    for lang in Lang::ALL {
        for (i, preset) in presets.iter().enumerate() {
            let mut app = explore(lang, Space::Global, WarpAccess::affine(4, 1, 0));
            press(&mut app, KeyCode::Char('p'));
            for _ in 0..i {
                press(&mut app, KeyCode::Down);
            }
            press(&mut app, KeyCode::Enter);
            for (width, height) in [(80u16, 24u16), (100, 30), (200, 60)] {
                let buf = buffer(&app, width, height);
                // The last row is the footer; every row above it belongs to a box reaching the
                // right edge.
                for y in 0..height - 1 {
                    let edge = buf[(width - 1, y)].symbol();
                    assert!(
                        ["│", "┐", "┘"].contains(&edge),
                        "{lang:?} preset {:?} at {width}×{height}: row {y} ends in {edge:?}:\n{}",
                        preset.name,
                        screen(&app, width, height)
                    );
                }
                let cut = cut_wide_characters(&buf);
                assert!(
                    cut.is_empty(),
                    "{lang:?} preset {:?} at {width}×{height}: {cut:?}\n{}",
                    preset.name,
                    screen(&app, width, height)
                );
            }
        }
    }
}
