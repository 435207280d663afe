//! What the integration tests share: an app on the built-in content with a fixed clock and seeds,
//! the screen as text, and keys pressed the way the event loop presses them.
#![allow(dead_code)]

pub mod tmux;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::Arc;
use warpdrill::app::App;
use warpdrill::clock::FakeClock;
use warpdrill::content::Content;
use warpdrill::progress::Progress;
use warpdrill::ui::Theme;

/// Unix time the test clock shows.
pub const NOW: u64 = 1_800_000_000;

/// An app on Home over the built-in content: no saving, plain colours, the clock at [`NOW`], and
/// seed 3 for every new variant.
pub fn app() -> App {
    app_at(Arc::new(FakeClock::at_secs(NOW)))
}

/// [`app`] on `clock` (move it on to move the app's time on).
pub fn app_at(clock: Arc<FakeClock>) -> App {
    App::new(
        Content::builtin(),
        Progress::default(),
        None,
        Theme::new(false),
        clock,
        Box::new(|| 3),
    )
}

/// The app drawn into a buffer of `width` × `height` cells.
pub fn buffer(app: &App, width: u16, height: u16) -> ratatui::buffer::Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| warpdrill::app::draw(frame, app))
        .expect("drawing into a test terminal");
    terminal.backend().buffer().clone()
}

/// Every number in `text` (digits, with a decimal point between digits), sorted: the same
/// multiset in two languages means the same figures, whatever the word order.
pub fn numbers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let decimal_point =
            c == '.' && !current.is_empty() && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_ascii_digit() || decimal_point {
            current.push(c);
        } else if !current.is_empty() {
            found.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        found.push(current);
    }
    found.sort();
    found
}

/// The screen drawn at `width` × `height`, one line per row, trailing spaces cut.
pub fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
    terminal
        .draw(|frame| warpdrill::app::draw(frame, app))
        .expect("drawing into a test terminal");
    let buffer = terminal.backend().buffer();
    buffer
        .content
        .chunks(usize::from(width))
        .map(|row| {
            // A double-width character's blank partner cell is left out, so Korean reads as the
            // terminal shows it.
            let mut line = String::new();
            let mut skip = false;
            for cell in row {
                if std::mem::take(&mut skip) {
                    continue;
                }
                line.push_str(cell.symbol());
                skip = ratatui::text::Span::raw(cell.symbol()).width() == 2;
            }
            line.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Presses a key with modifiers: the app turns it into an action, then carries it out.
pub fn press_with(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    if let Some(action) = app.handle_key(KeyEvent::new(code, modifiers)) {
        app.update(action);
    }
}

/// Presses a key.
pub fn press(app: &mut App, code: KeyCode) {
    press_with(app, code, KeyModifiers::NONE);
}

/// Types `text` character by character.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// [`app`] with the built-in flashcards under review: no log file, the app's fake clock at [`NOW`]
/// (UTC, the day turning at 4 am) shared by the deck, the default settings. The clock is returned
/// to move time on, for the app and the deck at once.
pub fn app_with_review() -> (App, Arc<FakeClock>) {
    let clock = Arc::new(FakeClock::at_secs(NOW));
    let mut app = app_at(clock.clone());
    let cards = app
        .content
        .cards
        .iter()
        .map(warpdrill::srs::deck::DeckCard::from)
        .collect();
    app.review = Some(warpdrill::srs::Deck::with_records(
        cards,
        Vec::new(),
        warpdrill::srs::config::Settings::default(),
        Box::new(warpdrill::srs::FsrsScheduler::new(&[]).expect("default parameters")),
        app.clock(),
    ));
    (app, clock)
}

/// A folder of its own for one test, removed when the returned guard drops: `name` inside a fresh
/// temporary folder, created.
pub fn temp_dir(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let root = tempfile::tempdir().expect("a temporary folder");
    let dir = root.path().join(name);
    std::fs::create_dir_all(&dir).expect("a test folder");
    (root, dir)
}

/// A settings location of its own for one run of the binary: the tutor remembers the language
/// chosen on Home in the config directory, so a language a person once chose must not reach the
/// tests, nor a test's choice the person.
pub fn isolated_config() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    std::env::temp_dir()
        .join(format!("warpdrill-test-config-{}", std::process::id()))
        .join(NEXT.fetch_add(1, Ordering::Relaxed).to_string())
        .join("review.ron")
}

/// The `warpdrill` binary, with settings of its own ([`isolated_config`]).
pub fn warpdrill() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_warpdrill"));
    command.env("WARPDRILL_CONFIG", isolated_config());
    command
}

/// Two ratings 20 and ~12 days ago on one card, and a forgotten new card today.
pub fn write_some_reviews(dir: &std::path::Path) {
    use warpdrill::srs::clock::Clock as _;
    let system = warpdrill::srs::clock::SystemClock;
    let now = system.now_ms();
    let clock = Arc::new(warpdrill::srs::clock::FakeClock::new(
        now - 20 * warpdrill::srs::clock::DAY_MS,
        system.utc_offset_secs(now),
    ));
    let content = Content::builtin();
    let mut deck = warpdrill::srs::Deck::open(
        &content.cards,
        dir,
        warpdrill::srs::config::Settings::default(),
        Box::new(warpdrill::srs::FsrsScheduler::new(&[]).unwrap()),
        clock.clone(),
    );
    deck.rate(0, warpdrill::srs::Rating::Easy, 4000, None)
        .unwrap();
    let due = deck.state(0).unwrap().due_day;
    clock.set(deck.settings().day.start_of(deck.clock(), due) + 3_600_000);
    assert!(clock.now_ms() < now);
    deck.rate(0, warpdrill::srs::Rating::Good, 3000, None)
        .unwrap();
    // The forgotten card comes back minutes later: rated far enough from the turn of the day
    // (4 am) that it is due again the same day, whatever time the tests run at.
    let day = deck.settings().day;
    let today = day.day_of(deck.clock(), now);
    clock.set(now.min(day.start_of(deck.clock(), today + 1) - 2 * 3_600_000));
    deck.rate(1, warpdrill::srs::Rating::Again, 9000, None)
        .unwrap();
}
