//! Review at scale: 10 000 cards and 100 000 log records loaded and the first card drawn (target
//! under 200 ms; from the snapshot beside the log, and from the log alone as on a first opening); one rating — appended, flushed to disk, next card picked (target under 5 ms); and
//! the statistics screen drawn at 200×60 over that year of history (target under 1 ms a frame).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use warpdrill::content::schema::Card;
use warpdrill::srs::clock::{Clock, DAY_MS, FakeClock};
use warpdrill::srs::config::Settings;
use warpdrill::srs::log::Record;
use warpdrill::srs::{CardState, Deck, FsrsScheduler, Memory, Phase, Rating};

const CARDS: usize = 10_000;
const RECORDS: usize = 100_000;
/// 2025-12-01 12:00 UTC.
const START: i64 = 1_764_590_400_000;

fn cards() -> Vec<Card> {
    (0..CARDS)
        .map(|i| Card {
            id: format!("card-{i:05}"),
            topic: format!("topic-{}", i % 8),
            tags: vec![],
            front: format!("Question {i}"),
            back: format!("Answer {i}"),
            drill: None,
            skill: None,
            rev: 0,
        })
        .collect()
}

/// A year of history: 10 ratings per card, spread over 365 days, every card in review.
fn write_log(dir: &Path) {
    let mut text = String::with_capacity(RECORDS * 260);
    for n in 0..RECORDS {
        let card = n % CARDS;
        let round = n / CARDS;
        let time = START + (round as i64 * 36 + (card % 30) as i64) * DAY_MS + card as i64 * 1000;
        let before = CardState {
            phase: if round == 0 {
                Phase::New
            } else {
                Phase::Review
            },
            interval_days: round as u32 * 3,
            ..CardState::NEW
        };
        let after = CardState {
            phase: Phase::Review,
            interval_days: round as u32 * 3 + 3,
            due_day: time / DAY_MS + round as i64 * 3 + 3,
            memory: Some(Memory {
                stability: 3.0 + round as f32 * 2.5,
                difficulty: 5.0 + (card % 5) as f32 * 0.3,
            }),
            ..before
        };
        let rating = if (card + round).is_multiple_of(9) {
            Rating::Again
        } else {
            Rating::Good
        };
        let record = Record::rate(
            time,
            &format!("card-{card:05}"),
            0,
            rating,
            &before,
            &after,
            3,
            4200,
            None,
        );
        text.push_str(&record.to_line());
    }
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("revlog.jsonl"), text).unwrap();
}

fn open(dir: &Path, cards: &[Card], clock: Arc<FakeClock>) -> Deck {
    Deck::open(
        cards,
        dir,
        // No daily limit: every iteration of the rating bench really rates a card.
        Settings {
            reviews_per_day: u32::MAX,
            ..Settings::default()
        },
        Box::new(FsrsScheduler::new(&[]).unwrap()),
        clock,
    )
}

fn bench_dir() -> PathBuf {
    // `$WARPDRILL_BENCH_DIR`, else next to the build: on the project's disk, not a RAM-backed /tmp,
    // so that the fsync is real.
    let base = std::env::var_os("WARPDRILL_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = base.join(format!("review-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn review(c: &mut Criterion) {
    let dir = bench_dir();
    write_log(&dir);
    let cards = cards();
    let now = START + 400 * DAY_MS;
    let mut group = c.benchmark_group("review");
    group.measurement_time(Duration::from_secs(10));
    group.sample_size(20);
    let snapshot = dir.join(warpdrill::srs::store::SNAPSHOT_FILE);
    group.bench_function(
        "load 10k cards + 100k records + first card, from the log alone",
        |b| {
            b.iter_batched(
                || {
                    let _ = std::fs::remove_file(&snapshot);
                },
                |()| {
                    let deck = open(&dir, &cards, Arc::new(FakeClock::new(now, 0)));
                    black_box(deck.next_card())
                },
                criterion::BatchSize::PerIteration,
            )
        },
    );
    // The opening above left the snapshot; the tutor's next opening reads it.
    group.bench_function("load 10k cards + 100k records + first card", |b| {
        b.iter(|| {
            let deck = open(&dir, &cards, Arc::new(FakeClock::new(now, 0)));
            black_box(deck.next_card())
        })
    });
    group.bench_function(
        "load 10k cards + 100k records + statistics (the whole history)",
        |b| {
            b.iter(|| {
                let deck = open(&dir, &cards, Arc::new(FakeClock::new(now, 0)));
                black_box(warpdrill::srs::stats::compute(&deck).total_reviews)
            })
        },
    );
    group.bench_function("parse 100k records", |b| {
        b.iter(|| {
            black_box(
                warpdrill::srs::store::RevlogFile::open(&dir, now)
                    .records
                    .len(),
            )
        })
    });
    let records = warpdrill::srs::store::RevlogFile::open(&dir, now).records;
    let deck_cards: Vec<_> = cards
        .iter()
        .map(warpdrill::srs::deck::DeckCard::from)
        .collect();
    group.bench_function("replay 100k records", |b| {
        b.iter(|| {
            black_box(Deck::with_records(
                deck_cards.clone(),
                records.clone(),
                Settings::default(),
                Box::new(FsrsScheduler::new(&[]).unwrap()),
                Arc::new(FakeClock::new(now, 0)),
            ))
        })
    });
    group.finish();

    let clock = Arc::new(FakeClock::new(now, 0));
    let mut deck = open(&dir, &cards, clock.clone());

    let content = warpdrill::content::Content::builtin();
    let progress = warpdrill::progress::Progress::default();
    let screen = warpdrill::ui::stats::State::new(warpdrill::srs::stats::compute(&deck));
    let ctx = warpdrill::ui::Ctx {
        content: &content,
        progress: &progress,
        notices: &[],
        theme: warpdrill::ui::Theme::new(false),
        lang: warpdrill::i18n::Lang::En,
        clock: clock.as_ref(),
        now: clock.now_secs(),
        review: Some(&deck),
        lab: None,
    };
    let area = ratatui::layout::Rect::new(0, 0, 200, 60);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    let mut group = c.benchmark_group("review");
    group.bench_function("stats screen 200x60, a year of history", |b| {
        b.iter(|| {
            buf.reset();
            warpdrill::ui::stats::render(&ctx, &screen, area, &mut buf);
            black_box(&buf);
        })
    });
    group.finish();
    let mut group = c.benchmark_group("review");
    group.sample_size(100);
    let mut card = deck.next_card().expect("a card is due");
    group.bench_function("rate: append + fsync + next card", |b| {
        b.iter(|| {
            clock.advance(1000);
            deck.rate(card, Rating::Good, 3000, None).unwrap();
            card = deck.next_card().expect("a card is due");
            black_box(card)
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, review);
criterion_main!(benches);
