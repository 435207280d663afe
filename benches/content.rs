//! Loading content through `--content`: 100 000 cards from a folder (the goal: well under a second),
//! 10 000 one-card files (the same goal), and `content check` on a deck written on one line. Both must grow linearly with the number of
//! cards.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use warpdrill::content::{self, Content, FileKind, SourceFile};

fn deck(cards: usize, separator: &str) -> String {
    let mut text = String::from("Deck(cards: [");
    for i in 0..cards {
        text.push_str(&format!(
            "(id: \"card-{i}\", topic: \"banks\", front: \"Question {i}: which bank holds byte {}?\", back: \"Bank {}.\"),{separator}",
            i * 4,
            i % 32
        ));
    }
    text.push_str("])\n");
    text
}

/// A content folder with `cards` cards in one deck.
fn folder(cards: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "warpdrill-bench-content-{cards}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("content")).expect("bench folder");
    std::fs::write(dir.join("content/deck.ron"), deck(cards, "\n")).expect("bench deck");
    dir
}

fn load_folder(c: &mut Criterion) {
    let dir = folder(100_000);
    let mut group = c.benchmark_group("--content");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("load 100 000 cards from a folder", |b| {
        b.iter(|| {
            let content = Content::with_dir(Some(&dir)).expect("loads");
            assert!(content.cards.len() >= 100_000);
            black_box(content)
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A content folder of `files` decks of one card each.
fn many_files(files: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "warpdrill-bench-files-{files}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("content")).expect("bench folder");
    for i in 0..files {
        std::fs::write(
            dir.join(format!("content/deck-{i}.ron")),
            format!(
                "Deck(cards: [(id: \"file-{i}\", topic: \"banks\", front: \"f\", back: \"b\")])\n"
            ),
        )
        .expect("bench deck");
    }
    dir
}

fn load_many_files(c: &mut Criterion) {
    // Each file's ids are checked against every id before it: kept in one set, not rebuilt.
    let mut group = c.benchmark_group("--content");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for files in [1_000, 10_000] {
        let dir = many_files(files);
        group.bench_function(format!("load {files} one-card files"), |b| {
            b.iter(|| {
                let content = Content::with_dir(Some(&dir)).expect("loads");
                assert!(content.cards.len() >= files);
                black_box(content)
            })
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
    group.finish();
}

fn check_many_exercises(c: &mut Criterion) {
    // `content check`'s linter and answer shares on one file of 2 000 exercises: each exercise is
    // found and placed through one index of the file, not a search of it.
    let mut text = String::from("Exercises(\n  exercises: [\n");
    for i in 0..2_000 {
        text.push_str(&format!(
            "    (\n      id: \"gen-{i}\",\n      level: L1,\n      topic: \"coalescing\",\n      title: \"Sectors {i}\",\n      params: {{ \"stride\": Choice([1, 2, 4, 8]) }},\n      values: [ (\"sectors\", Coalescing(elem: \"4\", stride: \"stride\", field: Sectors)) ],\n      prompt: \"A warp reads floats at stride {{stride}}. How many sectors? ({i})\",\n      answer: Number(value: \"sectors\", unit: Count(\"sectors\")),\n      hints: [\"Count the 32-byte pieces.\", \"Stride times four bytes, over 32.\"],\n      explanation: \"{{sectors}} sectors.\",\n    ),\n"
        ));
    }
    text.push_str("  ],\n)\n");
    let sources = vec![SourceFile {
        path: "exercises/gen.ron".into(),
        kind: FileKind::Exercises,
        text,
    }];
    let loaded = content::load(sources.clone(), &Content::builtin().topics);
    assert_eq!(loaded.exercises.len(), 2_000);
    let mut group = c.benchmark_group("content check");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function(
        "lint and answer shares of 2 000 exercises in one file",
        |b| {
            b.iter(|| {
                let found = warpdrill::ladder::check::lint_sources(&sources, &loaded);
                let shares = warpdrill::ladder::check::shares_in_sources(&sources, &loaded);
                black_box((found, shares))
            })
        },
    );
    group.finish();
}

fn check_one_line(c: &mut Criterion) {
    // Every card names an unknown topic, so every one is located and reported.
    let text = deck(40_000, "").replace("\"banks\"", "\"nope\"");
    let topics = Content::builtin().topics;
    let mut group = c.benchmark_group("content check");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("40 000 broken cards on one line", |b| {
        b.iter(|| {
            let source = SourceFile {
                path: "content/deck.ron".into(),
                text: text.clone(),
                kind: FileKind::Deck,
            };
            let loaded = content::load(vec![source], &topics);
            assert_eq!(loaded.problems.len(), 40_000);
            black_box(loaded)
        })
    });
    group.finish();
}

fn check_escaped_ids_and_many_topics(c: &mut Criterion) {
    // Ids written with escapes do not appear in the text as parsed: locating each must not read the
    // whole file again.
    let escaped = deck(30_000, "")
        .replace("id: \"card-", "id: \"c\\u{61}rd-")
        .replace("\"banks\"", "\"nope\"");
    // Many topics, and cards that name none of them: each message lists a few topics, not all.
    let mut topics = String::from("Topics(topics: [");
    for i in 0..20_000 {
        topics.push_str(&format!(
            r#"(id: "topic-{i}", name: "n", description: "d", analogy: "a"),"#
        ));
    }
    topics.push_str("])");
    let unmatched = deck(20_000, "").replace("\"banks\"", "\"nope\"");
    let builtin = Content::builtin().topics;
    let mut group = c.benchmark_group("content check");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("30 000 escaped ids", |b| {
        b.iter(|| {
            let source = SourceFile {
                path: "content/deck.ron".into(),
                text: escaped.clone(),
                kind: FileKind::Deck,
            };
            black_box(content::load(vec![source], &builtin))
        })
    });
    group.bench_function("20 000 topics, 20 000 cards naming none", |b| {
        b.iter(|| {
            let sources = vec![
                SourceFile {
                    path: "content/topics.ron".into(),
                    text: topics.clone(),
                    kind: FileKind::Topics,
                },
                SourceFile {
                    path: "content/deck.ron".into(),
                    text: unmatched.clone(),
                    kind: FileKind::Deck,
                },
            ];
            black_box(content::load(sources, &[]))
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    load_folder,
    load_many_files,
    check_many_exercises,
    check_one_line,
    check_escaped_ids_and_many_topics
);
criterion_main!(benches);
