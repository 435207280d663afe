//! Review from the command line: `stats --json`, the log export, Anki export and import, and a
//! damaged or cut-off log, against the real binary; and a log that keeps every rating through
//! `kill -9` and cut-off lines.

use crate::common;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use warpdrill::content::Content;
use warpdrill::srs::clock::{Clock, FakeClock, SystemClock};
use warpdrill::srs::config::Settings;
use warpdrill::srs::{Deck, FsrsScheduler, Rating};

fn warpdrill(dir: &Path, args: &[&str]) -> Output {
    crate::common::warpdrill()
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

#[test]
fn stats_json_has_the_promised_fields() {
    let (_dir_guard, dir) = common::temp_dir("stats");
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

    common::write_some_reviews(&dir);
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
}

#[test]
fn the_log_exports_in_the_optimizer_s_columns() {
    let (_dir_guard, dir) = common::temp_dir("export-log");
    common::write_some_reviews(&dir);
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
}

#[test]
fn anki_export_re_imported_gives_the_same_cards() {
    let (_dir_guard, dir) = common::temp_dir("anki");
    let file = dir.join("cards.txt");
    let out = warpdrill(&dir, &["cards", "export", "--anki", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let exported = std::fs::read_to_string(&file).unwrap();
    assert!(exported.starts_with("#separator:tab\n#html:false\n"));
    let deck = dir.join("deck");
    std::fs::create_dir_all(&deck).unwrap();
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
    let builtin = Content::builtin();
    let loaded = warpdrill::content::load_dir_over(
        &deck,
        &builtin.topics,
        &builtin.exercises,
        Some(warpdrill::ladder::check::check_variants),
    )
    .unwrap();
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
}

#[test]
fn an_import_writes_only_its_own_deck_in_an_existing_folder() {
    let (_dir_guard, dir) = common::temp_dir("anki-guard");
    let file = dir.join("cards.txt");
    let out = warpdrill(&dir, &["cards", "export", "--anki", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let import = |topic: &str, out_dir: &Path, more: &[&str]| {
        let mut args = vec![
            "cards",
            "import",
            "--anki",
            file.to_str().unwrap(),
            "--topic",
            topic,
            "--out",
            out_dir.to_str().unwrap(),
        ];
        args.extend(more);
        warpdrill(&dir, &args)
    };
    let deck = dir.join("deck");
    std::fs::create_dir_all(&deck).unwrap();
    // A topic is an id, never a path out of the folder.
    let escaped = import("x/../../../escaped", &deck, &[]);
    assert_eq!(escaped.status.code(), Some(2), "{escaped:?}");
    assert!(text(&escaped.stderr).contains("not a topic id"));
    assert!(!dir.join("escaped-anki.ron").exists());
    // No folders made anywhere but the deck's own `content/`.
    let nowhere = dir.join("no/such/folder");
    let refused = import("banks", &nowhere, &[]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    assert!(!dir.join("no").exists());
    // An existing deck is replaced only when asked.
    assert!(import("banks", &deck, &[]).status.success());
    let again = import("banks", &deck, &[]);
    assert_eq!(again.status.code(), Some(1), "{again:?}");
    assert!(text(&again.stderr).contains("--replace"));
    assert!(import("banks", &deck, &["--replace"]).status.success());
}

#[test]
fn a_damaged_log_is_reported_then_kept_aside_and_a_torn_line_kept_in_place() {
    let (_dir_guard, dir) = common::temp_dir("damaged");
    common::write_some_reviews(&dir);
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
    // `stats` only reads: it reports the damage and leaves the file alone.
    let out = warpdrill(&dir, &["stats", "--json"]);
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("damaged (line 1") && err.contains("left as it is"),
        "{err}"
    );
    assert!(log.exists());
    // The tutor, which holds the data directory, keeps it aside and says how to recover.
    let opened = warpdrill::srs::store::RevlogFile::open(&dir, SystemClock.now_ms());
    let notice = opened.notices.join("\n");
    assert!(
        notice.contains("damaged (line 1") && notice.contains("move it back"),
        "{notice}"
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
}

/// Run by `ratings_survive_kill_9_and_cut_off_lines` in a child process: rates cards as fast as it can and prints the
/// time of each rating once `rate` has returned (the record is on disk by then).
#[test]
#[ignore = "a child process of ratings_survive_kill_9_and_cut_off_lines"]
fn child_rates_until_killed() {
    let Some(dir) = std::env::var_os("WARPDRILL_CRASH_DIR") else {
        return;
    };
    use std::io::Write;
    let system = SystemClock;
    let start = system.now_ms();
    let clock = Arc::new(FakeClock::new(start, 0));
    let content = Content::builtin();
    let mut deck = Deck::open(
        &content.cards,
        Path::new(&dir),
        Settings {
            new_per_day: 10_000,
            ..Settings::default()
        },
        Box::new(FsrsScheduler::new(&[]).unwrap()),
        clock.clone(),
    );
    // Never repeat a time already in the log.
    let last = deck.records().map(|(r, _)| r.time).max().unwrap_or(start);
    clock.set(last + 1);
    let mut stdout = std::io::stdout().lock();
    for n in 0u64.. {
        clock.advance(1000);
        let card = deck.next_card().unwrap_or(0);
        let rating = Rating::ALL[(n % 4) as usize];
        deck.rate(card, rating, 1000, None).unwrap();
        writeln!(stdout, "saved {}", clock.now_ms()).unwrap();
        stdout.flush().unwrap();
    }
}

#[test]
fn ratings_survive_kill_9_and_cut_off_lines() {
    use std::io::{BufRead, BufReader};
    let (_dir_guard, dir) = common::temp_dir("kill");
    let mut saved: Vec<i64> = Vec::new();
    for round in 0..8u64 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "review::child_rates_until_killed",
                "--ignored",
                "--nocapture",
            ])
            .env("WARPDRILL_CRASH_DIR", &dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        // Let it rate a varying number of cards, then kill it (SIGKILL) mid-stream.
        let wanted = 5 + round * 7;
        let mut seen = 0;
        for line in lines.by_ref() {
            let line = line.unwrap();
            if let Some(time) = line.strip_prefix("saved ") {
                saved.push(time.parse().unwrap());
                seen += 1;
                if seen >= wanted {
                    break;
                }
            }
        }
        child.kill().unwrap();
        // Whatever it printed before dying was saved too.
        for line in lines.map_while(Result::ok) {
            if let Some(time) = line.strip_prefix("saved ") {
                saved.push(time.parse().unwrap());
            }
        }
        child.wait().unwrap();
        let loaded = warpdrill::srs::store::RevlogFile::open(&dir, 0);
        assert!(
            loaded.notices.iter().all(|n| n.contains("cut off")),
            "round {round}: {:?}",
            loaded.notices
        );
        let times: std::collections::HashSet<i64> = loaded.records.iter().map(|r| r.time).collect();
        for time in &saved {
            assert!(times.contains(time), "round {round}: rating at {time} lost");
        }
        if round % 2 == 1 {
            // As if the machine had died in the middle of writing the next rating.
            use std::io::Write;
            let mut log = std::fs::OpenOptions::new()
                .append(true)
                .open(dir.join("revlog.jsonl"))
                .unwrap();
            log.write_all(b"{\"time\":17645904000").unwrap();
        }
    }
    assert!(saved.len() >= 8 * 5);
}

#[test]
fn an_anki_import_reports_images_and_clozes_and_knows_the_topics_of_its_own_folder() {
    let (_dir_guard, dir) = common::temp_dir("anki-html");
    let file = dir.join("notes.txt");
    std::fs::write(
        &file,
        "#separator:tab\n#html:true\nWhat&hellip;?\t<img src=\"grid.png\" alt=\"grid\">two<img src=\"b.png\">\n{{c1::Shared memory}} has {{c2::32}} banks\t\n",
    )
    .unwrap();
    let deck = dir.join("deck");
    std::fs::create_dir_all(deck.join("content")).unwrap();
    let import = |topic: &str| {
        warpdrill(
            &dir,
            &[
                "cards",
                "import",
                "--anki",
                file.to_str().unwrap(),
                "--topic",
                topic,
                "--out",
                deck.to_str().unwrap(),
                "--replace",
            ],
        )
    };
    // A topic only the destination folder defines is known: no warning.
    std::fs::write(
        deck.join("content/topics.ron"),
        r#"Topics(topics: [(id: "my-topic", name: "Mine", description: "d", analogy: "a")])"#,
    )
    .unwrap();
    let out = import("my-topic");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(said.contains("2 images were left out"), "{said}");
    assert!(
        said.contains("1 cloze note was made into one card per cloze"),
        "{said}"
    );
    assert!(!said.contains("is not a topic"), "{said}");
    let written = std::fs::read_to_string(deck.join("content/cards-my-topic-anki.ron")).unwrap();
    assert!(
        written.contains("What…?") && !written.contains("&hellip;"),
        "{written}"
    );
    assert!(
        written.contains("[…] has 32 banks") && !written.contains("{{c1"),
        "{written}"
    );
    // One it does not define is warned about, naming the folder.
    let out = import("nowhere");
    assert!(
        text(&out.stderr).contains("`nowhere` is not a topic yet"),
        "{}",
        text(&out.stderr)
    );
}
