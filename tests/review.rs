//! Review from the command line: `stats --json`, the log export, Anki export and import, and a
//! damaged or cut-off log, against the real binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use warpdrill::content::Content;
use warpdrill::srs::clock::{Clock, DAY_MS, FakeClock, SystemClock};
use warpdrill::srs::config::Settings;
use warpdrill::srs::{Deck, FsrsScheduler, Rating};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpdrill-review-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn warpdrill(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpdrill"))
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .env("WARPDRILL_CONFIG", dir.join("no-such-review.ron"))
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Two ratings 20 and ~12 days ago on one card, and a forgotten new card now.
fn write_some_reviews(dir: &Path) {
    let system = SystemClock;
    let now = system.now_ms();
    let clock = Arc::new(FakeClock::new(
        now - 20 * DAY_MS,
        system.utc_offset_secs(now),
    ));
    let content = Content::builtin();
    let mut deck = Deck::open(
        &content.cards,
        dir,
        Settings::default(),
        Box::new(FsrsScheduler::new(&[], 0.9).unwrap()),
        clock.clone(),
    );
    deck.rate(0, Rating::Easy, 4000, None).unwrap();
    let due = deck.state(0).unwrap().due_day;
    clock.set(deck.settings().day.start_of(deck.clock(), due) + 3_600_000);
    assert!(clock.now_ms() < now);
    deck.rate(0, Rating::Good, 3000, None).unwrap();
    clock.set(now);
    deck.rate(1, Rating::Again, 9000, None).unwrap();
}

#[test]
fn stats_json_has_the_promised_fields() {
    let dir = temp_dir("stats");
    let out = warpdrill(&dir, &["stats", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let empty: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(empty["reviews_today"], 0);
    assert_eq!(empty["due_today"], 0);
    assert!(empty["retention_30d"].is_null());
    assert_eq!(empty["forecast"].as_array().unwrap().len(), 30);
    assert_eq!(empty["streak_days"], 0);
    let cards = Content::builtin().cards.len();
    assert_eq!(empty["cards"]["new"], cards);

    write_some_reviews(&dir);
    let out = warpdrill(&dir, &["stats", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["reviews_today"], 1);
    assert_eq!(
        stats["due_today"], 1,
        "the forgotten card is due again today"
    );
    assert_eq!(stats["retention_30d"], 1.0);
    assert_eq!(stats["cards"]["new"], cards - 2);
    assert_eq!(stats["cards"]["learning"], 1);
    assert_eq!(stats["cards"]["review"], 1);
    assert_eq!(stats["streak_days"], 1);
    assert_eq!(stats["forecast"][0], 1);

    let out = warpdrill(&dir, &["stats"]);
    let shown = text(&out.stdout);
    assert!(shown.contains("last 30 days 100%"), "{shown}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_log_exports_in_the_optimizer_s_columns() {
    let dir = temp_dir("export-log");
    write_some_reviews(&dir);
    let csv = dir.join("log.csv");
    let out = warpdrill(&dir, &["review", "export-log", csv.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(
        lines[0],
        "card_id,review_time,review_rating,review_state,review_duration"
    );
    assert_eq!(lines.len(), 4, "{written}");
    assert!(
        lines[1].starts_with("1,") && lines[1].ends_with(",4,0,4000"),
        "{written}"
    );
    assert!(lines[2].ends_with(",3,2,3000"), "{written}");
    assert!(
        lines[3].starts_with("2,") && lines[3].ends_with(",1,0,9000"),
        "{written}"
    );

    let out = warpdrill(&dir, &["review", "optimize"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("at least 400"),
        "{}",
        text(&out.stdout)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn anki_export_re_imported_gives_the_same_cards() {
    let dir = temp_dir("anki");
    let file = dir.join("cards.txt");
    let out = warpdrill(&dir, &["cards", "export", "--anki", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let exported = std::fs::read_to_string(&file).unwrap();
    assert!(exported.starts_with("#separator:tab\n#html:false\n"));
    let deck = dir.join("deck");
    let out = warpdrill(
        &dir,
        &[
            "cards",
            "import",
            "--anki",
            file.to_str().unwrap(),
            "--topic",
            "banks",
            "--out",
            deck.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let loaded = warpdrill::content::load_with(
        warpdrill::content::dir_sources(&deck).unwrap(),
        &Content::builtin().topics,
        &Content::builtin().exercises,
    );
    assert!(loaded.problems.is_empty(), "{:#?}", loaded.problems);
    let original = Content::builtin().cards;
    assert_eq!(loaded.cards.len(), original.len());
    for (back, card) in loaded.cards.iter().zip(&original) {
        assert_eq!(
            (&back.id, &back.front, &back.back, &back.tags, &back.drill),
            (&card.id, &card.front, &card.back, &card.tags, &card.drill)
        );
        assert_eq!(back.topic, "banks");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_damaged_log_is_kept_aside_and_a_torn_line_kept_in_place() {
    let dir = temp_dir("damaged");
    write_some_reviews(&dir);
    let log = dir.join("revlog.jsonl");
    let good = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&log, format!("{good}{{\"time\":17")).unwrap();
    let out = warpdrill(&dir, &["stats", "--json"]);
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("cut off"),
        "{}",
        text(&out.stderr)
    );
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        stats["reviews_today"], 1,
        "every rating before the torn line counts"
    );
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("{good}{{\"time\":17"),
        "kept, not truncated"
    );

    std::fs::write(&log, format!("not a record\n{good}")).unwrap();
    let out = warpdrill(&dir, &["stats", "--json"]);
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("damaged (line 1") && err.contains("move it back"),
        "{err}"
    );
    assert!(!log.exists());
    let aside: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("revlog.jsonl.damaged-")
        })
        .collect();
    assert_eq!(aside.len(), 1);
    std::fs::remove_dir_all(&dir).ok();
}
