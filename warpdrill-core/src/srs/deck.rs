//! The deck: the content's cards with their states derived from the review log, what to show next,
//! and every change the learner makes (rate, undo, suspend, bury), each appended to the log first.

use super::SrsError;
use super::clock::{Clock, DAY_MS};
use super::config::Settings;
use super::log::{DrillAnswer, Kind, Record};
use super::replay::{Applied, Rated, Replay, undone_flags};
use super::schedule::{
    CardState, Load, MAX_BALANCED_DAYS, Moment, Phase, Rating, Scheduler, answer, days_label,
    hash_text, interval_label, splitmix,
};
use super::store::{Access, RevlogFile};
use crate::content::schema::Card;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Learning cards due within this many milliseconds are shown early when nothing else is left.
pub const LEARN_AHEAD_MS: i64 = 20 * 60 * 1000;

/// Cards of its topic a wrong answer brings forward when no card shares the exercise's skill or
/// drills it ([`Deck::cards_for_miss`]).
pub const MISS_FALLBACK: usize = 3;

/// A card as review sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeckCard {
    /// Stable id: the log attaches to it.
    pub id: String,
    /// Topic id (cards of one topic are siblings, spread apart).
    pub topic: String,
    /// Revision: bumping it starts the card over.
    pub rev: u32,
    /// For a drill card, the exercise template it draws from.
    pub drill: Option<String>,
    /// The skill it practises (exercises naming it bring it forward when answered wrong).
    pub skill: Option<String>,
}

impl From<&Card> for DeckCard {
    fn from(card: &Card) -> Self {
        DeckCard {
            id: card.id.clone(),
            topic: card.topic.clone(),
            rev: card.rev,
            drill: card.drill.clone(),
            skill: card.skill.clone(),
        }
    }
}

/// Cards left today.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Counts {
    /// New cards still to introduce today.
    pub new: usize,
    /// Learning and relearning cards due today.
    pub learning: usize,
    /// Review cards due today (within the daily limit).
    pub review: usize,
}

/// What a rating would do, for the answer buttons.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    /// The rating.
    pub rating: Rating,
    /// The card's state after it.
    pub state: CardState,
    /// When it would come back: `10m`, `3d`, `1.5mo`.
    pub label: String,
    /// How long until it would come back (for [`Preview::label_in`]).
    pub wait: Wait,
}

/// How long until a card comes back: minutes and hours while it is learning, whole days once it is
/// scheduled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// Milliseconds (a learning step).
    Ms(i64),
    /// Days (a review interval).
    Days(u32),
}

impl Preview {
    /// [`Preview::label`] in `lang`: `10m`, `3d` in English, `10분`, `3일` in Korean.
    pub fn label_in(&self, lang: crate::i18n::Lang) -> String {
        match self.wait {
            Wait::Ms(ms) => super::schedule::interval_text(lang, 0, ms),
            Wait::Days(days) => super::schedule::days_text(lang, days),
        }
    }
}

/// The cards, their states, and the log they come from.
pub struct Deck {
    cards: Vec<DeckCard>,
    index: HashMap<String, usize>,
    /// What the log replays to; every card of the deck has a slot in it.
    replay: Replay,
    /// Each card's slot in [`Deck::replay`].
    slot_of: Vec<usize>,
    /// The log's records read at opening (after the snapshot, if one was used) and those written
    /// since.
    records: Vec<Record>,
    /// The records a snapshot covered, read from the log when first asked for
    /// ([`Deck::records`]): how many bytes of the log they fill, and once read, the records.
    older: Option<(u64, OnceLock<Vec<Record>>)>,
    /// Ratings per day: (new cards introduced, review cards answered).
    studied: HashMap<i64, (u32, u32)>,
    settings: Settings,
    scheduler: Box<dyn Scheduler>,
    clock: Arc<dyn Clock>,
    log: Option<RevlogFile>,
    notices: Vec<String>,
    topic_filter: Option<String>,
    last_topic: Option<String>,
    /// Where each card comes among new cards ([`new_order`]).
    new_rank: Vec<usize>,
}

/// The order new cards are introduced in: content order, except that each topic's drill cards are
/// spread among its fixed cards — the first right after the topic's first fixed card, the others
/// evenly after it — so a learner meets a drill of a topic on the first day rather than after all
/// of its fixed cards. Returns each card's rank (0 first).
pub fn new_order(cards: &[DeckCard]) -> Vec<usize> {
    let mut by_topic: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut topic_at: HashMap<&str, usize> = HashMap::new();
    for (i, card) in cards.iter().enumerate() {
        let at = *topic_at.entry(card.topic.as_str()).or_insert_with(|| {
            by_topic.push((card.topic.as_str(), Vec::new()));
            by_topic.len() - 1
        });
        by_topic[at].1.push(i);
    }
    let mut rank = vec![0; cards.len()];
    for (_, slots) in &by_topic {
        let (drills, fixed): (Vec<usize>, Vec<usize>) =
            slots.iter().partition(|&&i| cards[i].drill.is_some());
        let mut merged = Vec::with_capacity(slots.len());
        let mut fixed_left = fixed.iter().copied().peekable();
        let mut drills_left = drills.iter().copied();
        // One fixed card first, then the first drill.
        merged.extend(fixed_left.next());
        merged.extend(drills_left.next());
        let rest_drills: Vec<usize> = drills_left.collect();
        let rest_fixed: Vec<usize> = fixed_left.collect();
        // The remaining drills spread evenly: drill k after fixed card ⌈(k+1)·F/(D+1)⌉.
        let (f, d) = (rest_fixed.len(), rest_drills.len());
        let mut next_drill = 0;
        for (j, &card) in rest_fixed.iter().enumerate() {
            merged.push(card);
            while next_drill < d && (next_drill + 1) * f <= (j + 1) * (d + 1) {
                merged.push(rest_drills[next_drill]);
                next_drill += 1;
            }
        }
        merged.extend(rest_drills[next_drill..].iter().copied());
        // The topic keeps the positions its cards hold in content order.
        for (&slot, &card) in slots.iter().zip(&merged) {
            rank[card] = slot;
        }
    }
    rank
}

impl std::fmt::Debug for Deck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deck")
            .field("cards", &self.cards.len())
            .field("records", &self.records.len())
            .finish()
    }
}

impl Deck {
    /// The deck of `cards` with the log in `data_dir` (created on the first rating); the caller holds
    /// the data directory's lock.
    pub fn open(
        cards: &[Card],
        data_dir: &Path,
        settings: Settings,
        scheduler: Box<dyn Scheduler>,
        clock: Arc<dyn Clock>,
    ) -> Deck {
        Deck::open_with(cards, data_dir, Access::Write, settings, scheduler, clock)
    }

    /// [`Deck::open`] with the given access: a reader never changes the log (ratings fail with
    /// [`SrsError::ReadOnly`]).
    pub fn open_with(
        cards: &[Card],
        data_dir: &Path,
        access: Access,
        settings: Settings,
        scheduler: Box<dyn Scheduler>,
        clock: Arc<dyn Clock>,
    ) -> Deck {
        let loaded = RevlogFile::open_from_snapshot(data_dir, clock.now_ms(), access);
        let resumed = loaded.base.is_some();
        let added = loaded.records.len();
        let mut deck = Deck::build(
            cards.iter().map(DeckCard::from).collect(),
            loaded.base.unwrap_or_default(),
            loaded.records,
            settings,
            scheduler,
            clock,
        );
        if resumed {
            deck.older = Some((loaded.base_bytes, OnceLock::new()));
        }
        // The snapshot is brought up to date when it was missing or stale (before any change of
        // this session, so that it is exactly what the log's bytes replay to).
        if let Some(covered) = loaded.covered
            && covered.bytes > 0
            && (!resumed || added > 0)
        {
            loaded.log.save_snapshot(&deck.replay, covered);
        }
        deck.log = Some(loaded.log);
        let mut notices = loaded.notices;
        notices.append(&mut deck.notices);
        deck.notices = notices;
        deck
    }

    /// A deck replayed from `records`, with no file behind it (changes are kept in memory only).
    pub fn with_records(
        cards: Vec<DeckCard>,
        records: Vec<Record>,
        settings: Settings,
        scheduler: Box<dyn Scheduler>,
        clock: Arc<dyn Clock>,
    ) -> Deck {
        Deck::build(
            cards,
            Replay::default(),
            records,
            settings,
            scheduler,
            clock,
        )
    }

    /// The deck of `cards` from `replay` (a snapshot's, or empty) and the `records` after it.
    fn build(
        cards: Vec<DeckCard>,
        mut replay: Replay,
        records: Vec<Record>,
        settings: Settings,
        scheduler: Box<dyn Scheduler>,
        clock: Arc<dyn Clock>,
    ) -> Deck {
        let index = cards
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        let new_rank = new_order(&cards);
        let slot_of = cards.iter().map(|c| replay.slot(&c.id, c.rev)).collect();
        let base_rates = replay.rates().to_vec();
        let mut deck = Deck {
            cards,
            index,
            replay,
            slot_of,
            records: Vec::with_capacity(records.len()),
            older: None,
            studied: HashMap::new(),
            settings,
            scheduler,
            clock,
            log: None,
            notices: Vec::new(),
            topic_filter: None,
            last_topic: None,
            new_rank,
        };
        for rated in base_rates {
            deck.count(rated, 1);
        }
        let unknown: Vec<&str> = deck
            .settings
            .topic_retention
            .keys()
            .filter(|topic| !deck.cards.iter().any(|c| &c.topic == *topic))
            .map(String::as_str)
            .collect();
        if !unknown.is_empty() {
            let mut topics: Vec<&str> = Vec::new();
            for card in &deck.cards {
                if !topics.contains(&card.topic.as_str()) {
                    topics.push(&card.topic);
                }
            }
            let quote = |list: &[&str]| {
                list.iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let notice = format!(
                "The review settings (topic_retention) name {}, but no card has that topic; the \
                 topics of your cards are {}.",
                quote(&unknown),
                quote(&topics)
            );
            deck.notices.push(notice);
        }
        for record in records {
            deck.ingest(record);
        }
        deck
    }

    /// Card `i`'s state (`i` in range).
    fn st(&self, i: usize) -> &CardState {
        self.replay.state(self.slot_of[i])
    }

    /// Counts a rating toward its day's limit (`delta` 1), or takes it back (−1).
    fn count(&mut self, rated: Rated, delta: i32) {
        let day = self.day_of(rated.time);
        let counts = self.studied.entry(day).or_default();
        let slot = match rated.before {
            Phase::New => &mut counts.0,
            Phase::Review => &mut counts.1,
            _ => return,
        };
        *slot = slot.saturating_add_signed(delta);
    }

    /// Applies one record to the states (the same path for replay and for live changes).
    fn ingest(&mut self, record: Record) {
        let Applied { rated, unrated, .. } = self.replay.apply(&record);
        if let Some(rated) = rated {
            self.count(rated, 1);
        }
        if let Some(unrated) = unrated {
            self.count(unrated, -1);
        }
        if record.kind != Kind::Torn {
            self.records.push(record);
        }
    }

    /// Writes `records` to the log (flushed to disk), then applies them.
    fn push(&mut self, records: Vec<Record>) -> Result<(), SrsError> {
        if let Some(log) = self.log.as_mut() {
            log.append(&records)?;
        }
        for record in records {
            self.ingest(record);
        }
        Ok(())
    }

    /// Messages for the learner from loading (a cut-off line, a damaged log moved aside, why
    /// nothing is saved this time), for every screen of review to show.
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// Adds a message about review for the learner (settings or parameters that could not be used),
    /// once.
    pub fn add_notice(&mut self, notice: String) {
        if !self.notices.contains(&notice) {
            self.notices.push(notice);
        }
    }

    /// The cards, in content order.
    pub fn cards(&self) -> &[DeckCard] {
        &self.cards
    }

    /// The index of the card with this id.
    pub fn card(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The state of card `i`.
    pub fn state(&self, i: usize) -> Option<&CardState> {
        self.slot_of.get(i).map(|&slot| self.replay.state(slot))
    }

    /// The settings in use.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The clock in use.
    pub fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }

    /// The scheduler in use.
    pub fn scheduler(&self) -> &dyn Scheduler {
        self.scheduler.as_ref()
    }

    /// Every record with whether it was undone, oldest first.
    ///
    /// After an opening from a snapshot, the records it covered are read from the log on the first
    /// call (the statistics and exports need them; the review of the next card does not).
    pub fn records(&self) -> impl Iterator<Item = (&Record, bool)> {
        let older: &[Record] = match (&self.older, &self.log) {
            (Some((bytes, cache)), Some(log)) => cache.get_or_init(|| log.older_records(*bytes)),
            _ => &[],
        };
        let all = older.iter().chain(&self.records);
        let flags = undone_flags(all.clone());
        all.zip(flags)
    }

    /// The day number of a moment.
    pub fn day_of(&self, at_ms: i64) -> i64 {
        self.settings.day.day_of(self.clock.as_ref(), at_ms)
    }

    /// Today's day number.
    pub fn today(&self) -> i64 {
        self.day_of(self.clock.now_ms())
    }

    /// Only cards of this topic are shown (none: every card).
    pub fn set_topic_filter(&mut self, topic: Option<String>) {
        self.topic_filter = topic;
    }

    /// The topic whose cards alone are shown, if any.
    pub fn topic_filter(&self) -> Option<&str> {
        self.topic_filter.as_deref()
    }

    /// New cards that could be shown now (not suspended or buried, of the topic filtered on) but
    /// are held back by today's new-card limit.
    pub fn new_held_back(&self) -> usize {
        let today = self.today();
        let (new_left, _) = self.limits_left(today);
        let waiting = (0..self.cards.len())
            .filter(|&i| self.st(i).phase == Phase::New && self.eligible(i, today))
            .count();
        waiting.saturating_sub(new_left)
    }

    /// Changes today's new-card limit.
    pub fn set_new_per_day(&mut self, limit: u32) {
        self.settings.new_per_day = limit;
    }

    /// Calendar days since card `i` was last rated (0 if never).
    pub fn elapsed_days(&self, i: usize) -> u32 {
        self.state(i).and_then(|s| s.last_review_ms).map_or(0, |t| {
            u32::try_from((self.today() - self.day_of(t)).max(0)).unwrap_or(u32::MAX)
        })
    }

    /// Probability that card `i` is recalled now (none for a card never rated).
    pub fn retrievability(&self, i: usize) -> Option<f64> {
        let state = self.state(i)?;
        let memory = state.memory?;
        Some(
            self.scheduler
                .retrievability(memory, f64::from(self.elapsed_days(i))),
        )
    }

    fn eligible(&self, i: usize, today: i64) -> bool {
        let state = self.st(i);
        !state.suspended
            && state.buried_through.is_none_or(|day| day < today)
            && self
                .topic_filter
                .as_ref()
                .is_none_or(|t| *t == self.cards[i].topic)
    }

    fn limits_left(&self, today: i64) -> (usize, usize) {
        let (new, review) = self.studied.get(&today).copied().unwrap_or_default();
        (
            self.settings.new_per_day.saturating_sub(new) as usize,
            self.settings.reviews_per_day.saturating_sub(review) as usize,
        )
    }

    /// Cards left today: new (within the daily limit), learning, review (within the daily limit).
    pub fn counts(&self) -> Counts {
        let now = self.clock.now_ms();
        let today = self.day_of(now);
        let end_of_today = self.settings.day.start_of(self.clock.as_ref(), today + 1);
        let (new_left, review_left) = self.limits_left(today);
        let mut counts = Counts::default();
        for i in 0..self.cards.len() {
            if !self.eligible(i, today) {
                continue;
            }
            let state = self.st(i);
            match state.phase {
                Phase::New => counts.new += 1,
                Phase::Learning | Phase::Relearning if state.due_ms < end_of_today => {
                    counts.learning += 1
                }
                Phase::Review if state.due_day <= today => counts.review += 1,
                _ => {}
            }
        }
        counts.new = counts.new.min(new_left);
        counts.review = counts.review.min(review_left);
        counts
    }

    /// The card to show now: learning cards that are due, then review cards that are due (the least
    /// likely to be recalled first when there is a backlog from earlier days), then new cards; a
    /// card of the topic just rated is passed over while another topic has one. `None`: done for
    /// now.
    pub fn next_card(&self) -> Option<usize> {
        let now = self.clock.now_ms();
        let today = self.day_of(now);
        let (new_left, review_left) = self.limits_left(today);
        let last_topic = self.last_topic.as_deref();
        let mut learning: Option<(i64, usize)> = None;
        let mut ahead: Option<(i64, usize)> = None;
        let mut backlog = false;
        // (key, card) for the best review by due day then recall, and by recall alone; each also
        // among other topics than the last.
        let mut by_due: [Option<((i64, f64), usize)>; 2] = [None, None];
        let mut by_recall: [Option<(f64, usize)>; 2] = [None, None];
        let mut new: [Option<((bool, usize), usize)>; 2] = [None, None];
        for i in 0..self.cards.len() {
            if !self.eligible(i, today) {
                continue;
            }
            let state = self.st(i);
            let other = last_topic != Some(self.cards[i].topic.as_str());
            match state.phase {
                Phase::Learning | Phase::Relearning => {
                    if state.due_ms <= now {
                        if learning.is_none_or(|(due, _)| state.due_ms < due) {
                            learning = Some((state.due_ms, i));
                        }
                    } else if state.due_ms <= now + LEARN_AHEAD_MS
                        && ahead.is_none_or(|(due, _)| state.due_ms < due)
                    {
                        ahead = Some((state.due_ms, i));
                    }
                }
                Phase::Review if review_left > 0 && state.due_day <= today => {
                    backlog |= state.due_day < today;
                    // For ordering, the time since the last review will do (no time-zone lookup
                    // per card).
                    let recall =
                        state
                            .memory
                            .zip(state.last_review_ms)
                            .map_or(0.0, |(memory, last)| {
                                let days = (now - last).max(0) as f64 / DAY_MS as f64;
                                self.scheduler.retrievability(memory, days)
                            });
                    let due_key = (state.due_day, recall);
                    for slot in [0, 1] {
                        if slot == 1 && !other {
                            continue;
                        }
                        if by_due[slot].is_none_or(|(k, _)| {
                            due_key.0 < k.0 || (due_key.0 == k.0 && due_key.1 < k.1)
                        }) {
                            by_due[slot] = Some((due_key, i));
                        }
                        if by_recall[slot].is_none_or(|(k, _)| recall < k) {
                            by_recall[slot] = Some((recall, i));
                        }
                    }
                }
                Phase::New if new_left > 0 => {
                    let key = (!state.first, self.new_rank[i]);
                    for slot in [0, 1] {
                        if slot == 1 && !other {
                            continue;
                        }
                        if new[slot].is_none_or(|(k, _)| key < k) {
                            new[slot] = Some((key, i));
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some((_, i)) = learning {
            return Some(i);
        }
        let review = if backlog {
            by_recall[1].or(by_recall[0]).map(|(_, i)| i)
        } else {
            by_due[1].or(by_due[0]).map(|(_, i)| i)
        };
        review
            .or(new[1].or(new[0]).map(|(_, i)| i))
            .or(ahead.map(|(_, i)| i))
    }

    fn moment(&self, i: usize, now_ms: i64) -> Moment {
        let today = self.day_of(now_ms);
        let state = self.st(i);
        let elapsed = state.last_review_ms.map_or(0, |t| {
            u32::try_from((today - self.day_of(t)).max(0)).unwrap_or(u32::MAX)
        });
        Moment {
            now_ms,
            today,
            elapsed_days: elapsed,
            fuzz_seed: splitmix(
                hash_text(&self.cards[i].id)
                    ^ u64::from(self.cards[i].rev) << 32
                    ^ u64::from(state.reps),
            ),
            desired_retention: self.settings.retention_for(&self.cards[i].topic),
        }
    }

    /// What the load balancer sees when card `i` is rated today: the review cards due on each
    /// of the next [`MAX_BALANCED_DAYS`] days, `i` itself left out (it is being moved); none when
    /// load balancing is off.
    fn load(&self, i: usize, today: i64) -> Option<Load> {
        if !self.settings.load_balance {
            return None;
        }
        let days = MAX_BALANCED_DAYS as usize + 1;
        let mut due = vec![0u32; days];
        for (j, &slot) in self.slot_of.iter().enumerate() {
            let state = self.replay.state(slot);
            if j == i || state.suspended || state.phase != Phase::Review {
                continue;
            }
            if let Some(k) = usize::try_from(state.due_day - today)
                .ok()
                .filter(|&k| k < days)
            {
                due[k] += 1;
            }
        }
        Some(Load::new(today, due, self.settings.easy_days))
    }

    fn check(&self, i: usize) -> Result<(), SrsError> {
        if i < self.cards.len() {
            Ok(())
        } else {
            Err(SrsError::UnknownCard(format!("#{i}")))
        }
    }

    /// What each rating would do to card `i` now, with the label for its button.
    pub fn preview(&self, i: usize) -> Result<[Preview; 4], SrsError> {
        self.check(i)?;
        let now = self.clock.now_ms();
        let at = self.moment(i, now);
        let load = self.load(i, at.today);
        let state = *self.st(i);
        let one = |rating: Rating| -> Result<Preview, SrsError> {
            let after = answer(
                &state,
                rating,
                at,
                &self.settings,
                self.scheduler.as_ref(),
                load.as_ref(),
            )?;
            let wait = match after.phase {
                Phase::Learning | Phase::Relearning => Wait::Ms(after.due_ms - now),
                _ => Wait::Days(after.interval_days),
            };
            let label = match wait {
                Wait::Ms(_) => interval_label(now, after.due_ms),
                Wait::Days(days) => days_label(days),
            };
            Ok(Preview {
                rating,
                state: after,
                label,
                wait,
            })
        };
        Ok([
            one(Rating::Again)?,
            one(Rating::Hard)?,
            one(Rating::Good)?,
            one(Rating::Easy)?,
        ])
    }

    /// Rates card `i`: the record is written and flushed to disk before the state changes.
    pub fn rate(
        &mut self,
        i: usize,
        rating: Rating,
        duration_ms: u64,
        drill: Option<&DrillAnswer>,
    ) -> Result<(), SrsError> {
        self.check(i)?;
        let now = self.clock.now_ms();
        let at = self.moment(i, now);
        let before = *self.st(i);
        let load = self.load(i, at.today);
        let after = answer(
            &before,
            rating,
            at,
            &self.settings,
            self.scheduler.as_ref(),
            load.as_ref(),
        )?;
        let card = &self.cards[i];
        let record = Record::rate(
            now,
            &card.id,
            card.rev,
            rating,
            &before,
            &after,
            at.elapsed_days,
            duration_ms,
            drill,
        );
        let topic = card.topic.clone();
        self.push(vec![record])?;
        self.last_topic = Some(topic);
        Ok(())
    }

    /// Takes back the most recent rating, suspension or burial; returns the card it concerned (to be
    /// shown again), or `None` if that card is no longer in the content.
    pub fn undo(&mut self) -> Result<Option<usize>, SrsError> {
        let (slot, time) = self.replay.undo_top().ok_or(SrsError::NothingToUndo)?;
        let (id, rev) = self.replay.card_of(slot);
        let record = Record {
            undoes: Some(time),
            ..Record::about(self.clock.now_ms().max(time), id, rev, Kind::Undo)
        };
        self.push(vec![record])?;
        self.last_topic = None;
        Ok(self.slot_of.iter().position(|&s| s == slot))
    }

    fn mark(&mut self, i: usize, kind: Kind) -> Result<(), SrsError> {
        self.check(i)?;
        let now = self.clock.now_ms();
        let today = self.day_of(now);
        let card = &self.cards[i];
        let mut record = Record::about(now, &card.id, card.rev, kind);
        if kind == Kind::Bury {
            record.buried_through = Some(today);
        }
        self.push(vec![record])
    }

    /// Keeps card `i` out of review until [`Deck::unsuspend`].
    pub fn suspend(&mut self, i: usize) -> Result<(), SrsError> {
        self.mark(i, Kind::Suspend)
    }

    /// Puts a suspended card back into review.
    pub fn unsuspend(&mut self, i: usize) -> Result<(), SrsError> {
        self.mark(i, Kind::Unsuspend)
    }

    /// Keeps card `i` out of review until tomorrow.
    pub fn bury(&mut self, i: usize) -> Result<(), SrsError> {
        self.mark(i, Kind::Bury)
    }

    /// A wrong ladder answer in `topic`: every card of the topic that is not due yet becomes due
    /// today, and its new cards come first among today's new cards. Returns how many cards changed.
    /// (The tutor brings forward only the cards of the exercise's skill: [`Deck::cards_for_miss`].)
    pub fn lapse_topic(&mut self, topic: &str) -> Result<usize, SrsError> {
        let cards: Vec<usize> = (0..self.cards.len())
            .filter(|&i| self.cards[i].topic == topic)
            .collect();
        self.lapse_cards(&cards)
    }

    /// A wrong ladder answer: the cards `cards` (indices into [`Deck::cards`]) that are not due yet
    /// become due today, and those still new come first among today's new cards; suspended cards
    /// are left alone. Each change is a `Lapse` record naming the card's topic. Returns how many
    /// cards changed.
    pub fn lapse_cards(&mut self, cards: &[usize]) -> Result<usize, SrsError> {
        let now = self.clock.now_ms();
        let today = self.day_of(now);
        let mut seen = std::collections::HashSet::new();
        let records: Vec<Record> = cards
            .iter()
            .filter(|&&i| seen.insert(i))
            .filter_map(|&i| Some((self.cards.get(i)?, self.state(i)?)))
            .filter(|(_, state)| {
                !state.suspended
                    && match state.phase {
                        Phase::New => !state.first,
                        Phase::Review => state.due_day > today,
                        Phase::Learning | Phase::Relearning => state.due_ms > now,
                    }
            })
            .map(|(card, _)| Record {
                due_day: Some(today),
                topic: Some(card.topic.clone()),
                ..Record::about(now, &card.id, card.rev, Kind::Lapse)
            })
            .collect();
        let changed = records.len();
        if changed > 0 {
            self.push(records)?;
        }
        Ok(changed)
    }

    /// The cards a wrong answer to an exercise brings forward, most specific link first:
    ///
    /// 1. the cards whose `skill` is the exercise's `skill`, when it names one and any card does;
    /// 2. else the drill cards whose `drill` is the exercise (`exercise` is its id);
    /// 3. else at most [`MISS_FALLBACK`] cards of the exercise's `topic`, those most in need first:
    ///    the lowest recall ([`Deck::retrievability`]) first, a card never rated counting as 0, ties
    ///    in deck order.
    ///
    /// Suspended cards are never chosen. Indices into [`Deck::cards`].
    pub fn cards_for_miss(&self, exercise: &str, skill: Option<&str>, topic: &str) -> Vec<usize> {
        let live = |i: &usize| self.state(*i).is_some_and(|s| !s.suspended);
        let all = 0..self.cards.len();
        if let Some(skill) = skill {
            let by_skill: Vec<usize> = all
                .clone()
                .filter(|&i| self.cards[i].skill.as_deref() == Some(skill))
                .filter(live)
                .collect();
            if !by_skill.is_empty() {
                return by_skill;
            }
        }
        let by_drill: Vec<usize> = all
            .clone()
            .filter(|&i| self.cards[i].drill.as_deref() == Some(exercise))
            .filter(live)
            .collect();
        if !by_drill.is_empty() {
            return by_drill;
        }
        let mut in_topic: Vec<(f64, usize)> = all
            .filter(|&i| self.cards[i].topic == topic)
            .filter(live)
            .map(|i| (self.retrievability(i).unwrap_or(0.0), i))
            .collect();
        in_topic.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        in_topic
            .into_iter()
            .take(MISS_FALLBACK)
            .map(|(_, i)| i)
            .collect()
    }

    /// Mean recall ([`Deck::retrievability`]) of each topic's cards that have been rated at least
    /// once (suspended ones included: they were learnt); a topic none of whose cards was rated is
    /// absent. Two cards of `banks` at 0.95 and 0.75 give `banks → 0.85`.
    pub fn recall_by_topic(&self) -> std::collections::BTreeMap<String, f64> {
        let mut sums: std::collections::BTreeMap<String, (f64, u32)> = Default::default();
        for (i, card) in self.cards.iter().enumerate() {
            if let Some(r) = self.retrievability(i) {
                let entry = sums.entry(card.topic.clone()).or_default();
                entry.0 += r;
                entry.1 += 1;
            }
        }
        sums.into_iter()
            .map(|(topic, (sum, n))| (topic, sum / f64::from(n)))
            .collect()
    }

    /// Ratings given on day `day` that count toward the limits: (new introduced, reviews).
    pub fn studied_on(&self, day: i64) -> (u32, u32) {
        self.studied.get(&day).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::srs::clock::FakeClock;
    use crate::srs::schedule::FsrsScheduler;

    /// 2025-12-01 12:00 UTC; the fake clock is at UTC, the day turns at 4 am.
    const NOON: i64 = 1_764_590_400_000;
    const HOUR: i64 = 3_600_000;

    fn cards(n: usize, topics: usize) -> Vec<DeckCard> {
        (0..n)
            .map(|i| DeckCard {
                id: format!("card-{i}"),
                topic: format!("topic-{}", i % topics),
                rev: 0,
                drill: None,
                skill: None,
            })
            .collect()
    }

    fn deck_at(
        dir: Option<&Path>,
        cards: Vec<DeckCard>,
        settings: Settings,
    ) -> (Deck, Arc<FakeClock>) {
        let clock = Arc::new(FakeClock::new(NOON, 0));
        let scheduler = Box::new(FsrsScheduler::new(&[]).unwrap());
        let deck = match dir {
            Some(dir) => {
                let content: Vec<Card> = cards
                    .iter()
                    .map(|c| Card {
                        id: c.id.clone(),
                        topic: c.topic.clone(),
                        tags: vec![],
                        front: "f".into(),
                        back: "b".into(),
                        drill: c.drill.clone(),
                        skill: c.skill.clone(),
                        rev: c.rev,
                    })
                    .collect();
                Deck::open(&content, dir, settings, scheduler, clock.clone())
            }
            None => Deck::with_records(cards, vec![], settings, scheduler, clock.clone()),
        };
        (deck, clock)
    }

    /// A folder of its own for one test, removed when the returned guard drops: `name` inside a
    /// fresh temporary folder, not yet created.
    fn temp_dir(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let root = tempfile::tempdir().expect("a temporary folder");
        let dir = root.path().join(name);
        (root, dir)
    }

    /// Opens the deck of `cards` on `dir` at `now`, as a new session does.
    fn session(dir: &Path, cards: &[DeckCard], now: i64) -> (Deck, Arc<FakeClock>) {
        let clock = Arc::new(FakeClock::new(now, 0));
        let content: Vec<Card> = cards
            .iter()
            .map(|c| Card {
                id: c.id.clone(),
                topic: c.topic.clone(),
                tags: vec![],
                front: "f".into(),
                back: "b".into(),
                drill: None,
                skill: None,
                rev: c.rev,
            })
            .collect();
        let deck = Deck::open(
            &content,
            dir,
            Settings::default(),
            Box::new(FsrsScheduler::new(&[]).unwrap()),
            clock.clone(),
        );
        (deck, clock)
    }

    /// Everything a learner sees of a deck: states, counts, today's limits, the next card, the
    /// history with its undone flags.
    type Seen = (
        Vec<CardState>,
        Counts,
        (u32, u32),
        Option<usize>,
        Vec<(Record, bool)>,
    );

    fn seen(deck: &Deck) -> Seen {
        (
            states(deck),
            deck.counts(),
            deck.studied_on(deck.today()),
            deck.next_card(),
            deck.records().map(|(r, u)| (r.clone(), u)).collect(),
        )
    }

    #[test]
    fn a_deck_opened_from_its_snapshot_is_the_deck_the_whole_log_replays_to() {
        use super::super::store::SNAPSHOT_FILE;
        let (_guard, dir) = temp_dir("snapshot");
        let all = cards(12, 3);
        let mut now = NOON;
        let mut rng = 0x5eed_u64;
        let mut next = |n: u64| {
            rng = splitmix(rng);
            rng % n
        };
        for session_no in 0..14 {
            // A glance (the tutor opened and closed) brings the snapshot up to date, so that the
            // session proper starts from the snapshot alone.
            drop(session(&dir, &all, now));
            let (mut deck, clock) = session(&dir, &all, now);
            // Against the same log read whole, without the snapshot.
            let whole = {
                let aside = dir.join("aside.json");
                let had = std::fs::rename(dir.join(SNAPSHOT_FILE), &aside).is_ok();
                let (whole, _) = session(&dir, &all, now);
                let seen_whole = seen(&whole);
                drop(whole);
                if had {
                    std::fs::rename(&aside, dir.join(SNAPSHOT_FILE)).unwrap();
                }
                seen_whole
            };
            assert_eq!(seen(&deck), whole, "session {session_no}");
            if session_no > 1 {
                assert!(
                    deck.older.is_some(),
                    "session {session_no} used the snapshot"
                );
            }
            for _ in 0..(3 + next(6)) {
                clock.advance(1000 + (next(3) as i64) * 600_000);
                match next(10) {
                    0 => {
                        let _ = deck.undo();
                    }
                    1 => deck.bury(next(12) as usize).unwrap(),
                    2 => deck.suspend(next(12) as usize).unwrap(),
                    3 => deck.unsuspend(next(12) as usize).unwrap(),
                    _ => {
                        if let Some(card) = deck.next_card() {
                            let rating = Rating::from_number(1 + next(4) as u8).unwrap();
                            deck.rate(card, rating, 2000, None).unwrap();
                        }
                    }
                }
            }
            // Undo right after reopening reaches into the snapshot.
            if session_no % 4 == 3 {
                drop(deck);
                let (mut again, _) = session(&dir, &all, clock.now_ms() + 1000);
                let _ = again.undo();
            }
            // Every other session the same day, so that today's limits carry over.
            now = clock.now_ms() + (session_no % 2) * (1 + next(2) as i64) * DAY_MS + 1000;
        }
        assert!(dir.join(SNAPSHOT_FILE).exists());
    }

    /// Every card of `all` rated Good once, a minute apart, from noon; then the deck opened again
    /// an hour later, which writes the snapshot.
    fn rated_then_reopened(dir: &Path, all: &[DeckCard]) -> Deck {
        let (mut deck, clock) = session(dir, all, NOON);
        for i in 0..all.len() {
            clock.advance(60_000);
            deck.rate(i, Rating::Good, 1000, None).unwrap();
        }
        drop(deck);
        let (deck, _) = session(dir, all, NOON + HOUR);
        assert!(dir.join(super::super::store::SNAPSHOT_FILE).exists());
        deck
    }

    #[test]
    fn a_snapshot_that_does_not_match_its_log_is_rebuilt_from_the_log() {
        use super::super::store::{LOG_FILE, SNAPSHOT_FILE};
        let (_guard, dir) = temp_dir("stale");
        let all = cards(4, 2);
        let deck = rated_then_reopened(&dir, &all);
        let expected = seen(&deck);
        drop(deck);
        let log = std::fs::read_to_string(dir.join(LOG_FILE)).unwrap();
        // A damaged snapshot, one of another format, and one cut short are ignored.
        for text in ["{not json", "{\"format\":99}", ""] {
            std::fs::write(dir.join(SNAPSHOT_FILE), text).unwrap();
            let (deck, _) = session(&dir, &all, NOON + HOUR);
            assert_eq!(seen(&deck), expected, "snapshot {text:?}");
        }
        // The log cut back by a line (restored from a backup): the snapshot covers more than the
        // log holds, and the deck follows the log.
        let (deck, _) = session(&dir, &all, NOON + HOUR);
        drop(deck);
        let lines: Vec<&str> = log.lines().collect();
        let cut = lines[..3].join("\n") + "\n";
        std::fs::write(dir.join(LOG_FILE), &cut).unwrap();
        let (deck, _) = session(&dir, &all, NOON + HOUR);
        assert_eq!(deck.state(3).unwrap().phase, Phase::New);
        assert_eq!(deck.records().count(), 3);
        drop(deck);
        // The log edited in place, same length: the tail hash differs.
        let edited = cut.replacen("\"rating\":3", "\"rating\":1", 1);
        assert_eq!(edited.len(), cut.len());
        std::fs::write(dir.join(LOG_FILE), &edited).unwrap();
        let (deck, _) = session(&dir, &all, NOON + HOUR);
        let (whole, _) = {
            std::fs::remove_file(dir.join(SNAPSHOT_FILE)).unwrap();
            session(&dir, &all, NOON + HOUR)
        };
        assert_eq!(seen(&deck), seen(&whole));
        drop((deck, whole));
        // A line older than the snapshot's newest record, added after it (a merge from another
        // machine), is replayed in its place: the whole log is read.
        let (deck, _) = session(&dir, &all, NOON + HOUR);
        drop(deck);
        let older = Record::about(NOON + 30_000, &all[3].id, 0, Kind::Suspend).to_line();
        let mut merged = edited.clone();
        merged.push_str(&older);
        std::fs::write(dir.join(LOG_FILE), &merged).unwrap();
        let (deck, _) = session(&dir, &all, NOON + HOUR);
        assert!(deck.state(3).unwrap().suspended);
        assert!(deck.older.is_none(), "read whole");
    }

    #[test]
    fn a_line_damaged_after_the_snapshot_is_reported_with_its_line_in_the_whole_log() {
        use super::super::store::{LOG_FILE, SNAPSHOT_FILE};
        let (_guard, dir) = temp_dir("damaged-after");
        let all = cards(3, 1);
        drop(rated_then_reopened(&dir, &all));
        let mut log = std::fs::read_to_string(dir.join(LOG_FILE)).unwrap();
        log.push_str("{\"time\":1,\"cxrd\":\"x\"}\n");
        std::fs::write(dir.join(LOG_FILE), &log).unwrap();
        let (deck, _) = session(&dir, &all, NOON + 2 * HOUR);
        let notices = deck.notices().join(" ");
        assert!(notices.contains("line 4"), "{notices}");
        assert_eq!(deck.state(0).unwrap().phase, Phase::New, "a fresh log");
        assert!(
            !dir.join(SNAPSHOT_FILE).exists(),
            "the snapshot went with the log"
        );
    }

    /// 400 cards learnt on one day and reviewed Good each time they are due, for 60 days: the
    /// largest number due on one day from day 30 to 60.
    fn busiest_day(settings: Settings) -> (u32, Deck) {
        let (mut deck, clock) = deck_at(None, cards(400, 4), settings);
        for _ in 0..60 {
            let start = deck.settings().day.start_of(deck.clock(), deck.today());
            clock.set(start + 5 * HOUR);
            while let Some(card) = deck.next_card() {
                let rating = Rating::Good;
                deck.rate(card, rating, 1000, None).unwrap();
                clock.advance(1000);
                if deck.st(card).phase != Phase::Review {
                    // A learning step: come back for it.
                    clock.advance(10 * 60 * 1000);
                }
            }
            clock.set(start + DAY_MS + 5 * HOUR);
        }
        let today = deck.today();
        let mut by_day: HashMap<i64, u32> = HashMap::new();
        for i in 0..deck.cards().len() {
            *by_day.entry(deck.st(i).due_day).or_default() += 1;
        }
        let busiest = (today..today + 30)
            .map(|d| by_day.get(&d).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        (busiest, deck)
    }

    #[test]
    fn load_balancing_flattens_the_days_ahead_and_the_buttons_show_what_rating_does() {
        let unlimited = Settings {
            new_per_day: 400,
            reviews_per_day: u32::MAX,
            ..Settings::default()
        };
        let (balanced, deck) = busiest_day(unlimited.clone());
        let (plain, _) = busiest_day(Settings {
            load_balance: false,
            ..unlimited
        });
        assert!(
            f64::from(balanced) < f64::from(plain) * 0.8,
            "busiest day {balanced} balanced against {plain} without"
        );
        // The interval a button shows is the one rating gives, balancing included.
        let mut deck = deck;
        let clock = Arc::new(FakeClock::new(deck.clock().now_ms() + 20 * DAY_MS, 0));
        deck.clock = clock;
        for _ in 0..20 {
            let Some(card) = deck.next_card() else { break };
            let preview = deck.preview(card).unwrap();
            deck.rate(card, Rating::Good, 1000, None).unwrap();
            assert_eq!(*deck.st(card), preview[2].state);
        }
    }

    #[test]
    fn a_topic_of_its_own_retention_gets_its_own_intervals() {
        let mut topic_retention = std::collections::BTreeMap::new();
        topic_retention.insert("topic-1".to_string(), 0.80);
        let settings = Settings {
            topic_retention,
            load_balance: false,
            ..Settings::default()
        };
        let (mut deck, clock) = deck_at(None, cards(2, 2), settings);
        for _ in 0..2 {
            for card in [0, 1] {
                deck.rate(card, Rating::Good, 1000, None).unwrap();
            }
            clock.advance(10 * 60 * 1000);
        }
        let (relaxed, strict) = (deck.st(1).interval_days, deck.st(0).interval_days);
        assert_eq!(deck.st(0).memory, deck.st(1).memory);
        assert!(relaxed > strict, "80 % gives {relaxed} days, 90 % {strict}");
    }

    #[test]
    fn good_again_and_again_gives_growing_intervals_across_days() {
        let (mut deck, clock) = deck_at(None, cards(1, 1), Settings::default());
        deck.rate(0, Rating::Good, 1000, None).unwrap();
        assert_eq!(deck.state(0).unwrap().phase, Phase::Learning);
        clock.advance(10 * 60 * 1000);
        deck.rate(0, Rating::Good, 1000, None).unwrap();
        let mut last = 0;
        for _ in 0..6 {
            let state = *deck.state(0).unwrap();
            assert_eq!(state.phase, Phase::Review);
            assert!(
                state.interval_days > last,
                "{} after {last}",
                state.interval_days
            );
            last = state.interval_days;
            // Come back on the due day, at 5 am local (just after the day turns).
            let due = deck.settings().day.start_of(deck.clock(), state.due_day) + HOUR;
            clock.set(due);
            assert_eq!(deck.next_card(), Some(0));
            assert_eq!(deck.counts().review, 1);
            deck.rate(0, Rating::Good, 1000, None).unwrap();
        }
        assert!(last > 30, "{last}");
    }

    #[test]
    fn elapsed_days_are_calendar_days_with_the_day_starting_at_4am() {
        let (mut deck, clock) = deck_at(None, cards(1, 1), Settings::default());
        clock.set(NOON + 11 * HOUR); // 23:00
        deck.rate(0, Rating::Easy, 1000, None).unwrap();
        clock.set(NOON + 16 * HOUR); // 04:00 next day: a new day
        assert_eq!(deck.elapsed_days(0), 1);
        clock.set(NOON + 15 * HOUR); // 03:00 next day: still the same day
        assert_eq!(deck.elapsed_days(0), 0);
    }

    #[test]
    fn again_on_a_review_card_goes_to_the_relearning_step() {
        let (mut deck, clock) = deck_at(None, cards(1, 1), Settings::default());
        deck.rate(0, Rating::Easy, 1000, None).unwrap();
        let state = *deck.state(0).unwrap();
        clock.set(deck.settings().day.start_of(deck.clock(), state.due_day) + HOUR);
        let now = clock.now_ms();
        deck.rate(0, Rating::Again, 1000, None).unwrap();
        let state = *deck.state(0).unwrap();
        assert_eq!(state.phase, Phase::Relearning);
        assert_eq!(state.due_ms, now + 10 * 60 * 1000);
        assert_eq!(state.lapses, 1);
        assert_eq!(deck.next_card(), Some(0), "shown early: nothing else left");
        clock.advance(10 * 60 * 1000);
        deck.rate(0, Rating::Good, 1000, None).unwrap();
        assert_eq!(deck.state(0).unwrap().phase, Phase::Review);
    }

    fn states(deck: &Deck) -> Vec<CardState> {
        (0..deck.cards().len())
            .map(|i| *deck.state(i).unwrap())
            .collect()
    }

    #[test]
    fn undo_restores_the_exact_state_repeatedly_and_survives_reloading() {
        let (_dir_guard, dir) = temp_dir("undo");
        let (mut deck, clock) = deck_at(Some(&dir), cards(3, 3), Settings::default());
        let mut history = vec![states(&deck)];
        for (card, rating) in [(0, Rating::Good), (1, Rating::Again), (0, Rating::Good)] {
            clock.advance(60_000);
            deck.rate(card, rating, 500, None).unwrap();
            history.push(states(&deck));
        }
        deck.bury(2).unwrap();
        deck.undo().unwrap();
        assert_eq!(states(&deck), history[3]);
        assert_eq!(deck.undo().unwrap(), Some(0));
        assert_eq!(states(&deck), history[2]);
        assert_eq!(deck.undo().unwrap(), Some(1));
        assert_eq!(states(&deck), history[1]);
        let (reloaded, _) = deck_at(Some(&dir), cards(3, 3), Settings::default());
        assert_eq!(states(&reloaded), history[1]);
        assert_eq!(reloaded.studied_on(deck.today()), (1, 0));
        assert!(matches!(deck.undo(), Ok(Some(0))));
        assert!(matches!(deck.undo(), Err(SrsError::NothingToUndo)));
    }

    #[test]
    fn order_is_learning_then_reviews_then_new_with_siblings_spread() {
        let (mut deck, clock) = deck_at(None, cards(6, 2), Settings::default());
        // card-0 (topic-0) in learning; card-1 (topic-1) in review, due today.
        deck.rate(0, Rating::Again, 1, None).unwrap();
        deck.rate(1, Rating::Easy, 1, None).unwrap();
        let due = deck.state(1).unwrap().due_day;
        clock.set(deck.settings().day.start_of(deck.clock(), due) + HOUR);
        deck.rate(0, Rating::Again, 1, None).unwrap(); // learning again, due in 1 minute
        clock.advance(2 * 60_000);
        assert_eq!(deck.next_card(), Some(0), "learning first");
        deck.rate(0, Rating::Good, 1, None).unwrap();
        assert_eq!(deck.next_card(), Some(1), "then the review");
        deck.rate(1, Rating::Good, 1, None).unwrap();
        // New cards in content order, but not two of one topic in a row: topic-1 was just rated.
        assert_eq!(deck.next_card(), Some(2));
        deck.rate(2, Rating::Easy, 1, None).unwrap();
        assert_eq!(deck.next_card(), Some(3));
        let counts = deck.counts();
        assert_eq!((counts.learning, counts.review), (1, 0));
    }

    #[test]
    fn drill_cards_are_spread_among_their_topic_s_new_cards() {
        // topic-0: six fixed cards then two drills, as content files list them; topic-1 after.
        let mut cards = cards(10, 1);
        cards[6].drill = Some("l1-a".into());
        cards[7].drill = Some("l1-b".into());
        cards[8].topic = "topic-1".into();
        cards[9].topic = "topic-1".into();
        let (mut deck, _) = deck_at(None, cards, Settings::default());
        deck.set_topic_filter(Some("topic-0".into()));
        let mut order = Vec::new();
        while let Some(i) = deck.next_card() {
            order.push(i);
            deck.rate(i, Rating::Easy, 1, None).unwrap();
        }
        assert_eq!(order.len(), 8);
        assert_eq!(order[1], 6, "the first drill second: {order:?}");
        let second = order.iter().position(|&i| i == 7).unwrap();
        assert!(
            (3..7).contains(&second),
            "the other in the middle: {order:?}"
        );
        let rank = new_order(deck.cards());
        assert!(rank[8] > rank[7] && rank[9] > rank[8], "{rank:?}");
    }

    #[test]
    fn the_daily_limits_hold() {
        let settings = Settings {
            new_per_day: 2,
            ..Settings::default()
        };
        let (mut deck, clock) = deck_at(None, cards(5, 1), settings);
        assert_eq!(deck.counts().new, 2);
        deck.rate(0, Rating::Easy, 1, None).unwrap();
        deck.rate(1, Rating::Easy, 1, None).unwrap();
        assert_eq!(deck.counts().new, 0);
        assert_eq!(deck.next_card(), None);
        clock.advance(DAY_MS);
        assert_eq!(deck.counts().new, 2);
    }

    #[test]
    fn backlog_reviews_come_lowest_recall_first() {
        let (mut deck, clock) = deck_at(None, cards(2, 2), Settings::default());
        deck.rate(0, Rating::Easy, 1, None).unwrap();
        clock.advance(3 * DAY_MS);
        deck.rate(1, Rating::Easy, 1, None).unwrap();
        // Much later both are overdue; card 0 has waited longer past a similar stability.
        clock.advance(200 * DAY_MS);
        let r0 = deck.retrievability(0).unwrap();
        let r1 = deck.retrievability(1).unwrap();
        assert!(r0 < r1);
        assert_eq!(deck.next_card(), Some(0));
    }

    #[test]
    fn suspend_bury_and_a_ladder_lapse() {
        let (mut deck, clock) = deck_at(None, cards(3, 1), Settings::default());
        deck.suspend(0).unwrap();
        assert_eq!(deck.next_card(), Some(1));
        deck.bury(1).unwrap();
        assert_eq!(deck.next_card(), Some(2));
        deck.rate(2, Rating::Easy, 1, None).unwrap();
        assert_eq!(deck.next_card(), None);
        assert_eq!(deck.lapse_topic("topic-0").unwrap(), 2);
        assert_eq!(deck.next_card(), Some(2), "due today after the ladder miss");
        clock.advance(DAY_MS);
        deck.unsuspend(0).unwrap();
        assert_eq!(deck.counts().new, 2);
    }

    #[test]
    fn a_miss_brings_forward_its_skill_then_its_drill_then_a_few_of_the_topic() {
        let mut cards = cards(8, 1);
        cards[1].skill = Some("stride".into());
        cards[2].skill = Some("stride".into());
        cards[3].drill = Some("l2-stride".into());
        let (mut deck, clock) = deck_at(None, cards, Settings::default());
        for i in 0..8 {
            deck.rate(i, Rating::Easy, 1, None).unwrap();
        }
        assert_eq!(deck.next_card(), None);
        // The skill's cards, not the topic's 8.
        assert_eq!(
            deck.cards_for_miss("l2-stride", Some("stride"), "topic-0"),
            [1, 2]
        );
        // No card of that skill: the drill cards of the exercise.
        assert_eq!(
            deck.cards_for_miss("l2-stride", Some("other"), "topic-0"),
            [3]
        );
        assert_eq!(deck.cards_for_miss("l2-stride", None, "topic-0"), [3]);
        deck.suspend(2).unwrap();
        assert_eq!(
            deck.cards_for_miss("l2-stride", Some("stride"), "topic-0"),
            [1]
        );
        let changed = deck
            .lapse_cards(&deck.cards_for_miss("l2-stride", Some("stride"), "topic-0"))
            .unwrap();
        assert_eq!(changed, 1, "one card, not the whole topic");
        assert_eq!(deck.next_card(), Some(1));
        assert_eq!(deck.lapse_cards(&[1, 1]).unwrap(), 0, "already due");
        // Nothing links them: at most MISS_FALLBACK of the topic, the least recalled first.
        clock.advance(30 * DAY_MS);
        deck.rate(5, Rating::Again, 1, None).unwrap();
        let fallback = deck.cards_for_miss("l1-other", None, "topic-0");
        assert_eq!(fallback.len(), MISS_FALLBACK);
        assert!(!fallback.contains(&5), "just rated: best recalled");
        assert!(deck.cards_for_miss("l1-other", None, "topic-9").is_empty());
    }

    #[test]
    fn recall_by_topic_averages_the_reviewed_cards() {
        let (mut deck, clock) = deck_at(None, cards(4, 2), Settings::default());
        assert!(deck.recall_by_topic().is_empty(), "nothing reviewed");
        deck.rate(0, Rating::Good, 1, None).unwrap();
        deck.rate(2, Rating::Good, 1, None).unwrap();
        clock.advance(10 * DAY_MS);
        let recall = deck.recall_by_topic();
        assert_eq!(recall.len(), 1, "{recall:?}");
        let r = recall["topic-0"];
        let mean = (deck.retrievability(0).unwrap() + deck.retrievability(2).unwrap()) / 2.0;
        assert!((r - mean).abs() < 1e-12 && r < 1.0 && r > 0.0, "{r}");
    }

    #[test]
    fn a_bumped_rev_starts_over_and_a_removed_card_keeps_its_log() {
        let (_dir_guard, dir) = temp_dir("rev");
        let (mut deck, _) = deck_at(Some(&dir), cards(2, 1), Settings::default());
        deck.rate(0, Rating::Easy, 1, None).unwrap();
        deck.rate(1, Rating::Easy, 1, None).unwrap();
        let mut changed = cards(2, 1);
        changed[0].rev = 1;
        let (reloaded, _) = deck_at(Some(&dir), changed, Settings::default());
        assert_eq!(reloaded.state(0).unwrap().phase, Phase::New);
        assert_eq!(reloaded.state(1).unwrap().phase, Phase::Review);
        let (without, _) = deck_at(Some(&dir), cards(1, 1)[..0].to_vec(), Settings::default());
        assert_eq!(without.records().count(), 2);
        let (back, _) = deck_at(Some(&dir), cards(2, 1), Settings::default());
        assert_eq!(back.state(0).unwrap().phase, Phase::Review);
    }
}
