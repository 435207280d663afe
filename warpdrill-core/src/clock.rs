//! Time: the one injected clock the whole tutor reads (the app's seconds, the review deck's
//! milliseconds, the lab's deadlines), and the learner's day, which starts at a configurable hour of
//! local time (4 am by default, as in Anki).

use chrono::{Local, Offset, TimeZone};
use std::sync::atomic::{AtomicI64, Ordering};

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

/// Where "now" comes from, and how far local time is from UTC at a moment.
pub trait Clock: Send + Sync {
    /// Now, in milliseconds since the Unix epoch (UTC).
    fn now_ms(&self) -> i64;
    /// Local time minus UTC at `at_ms`, in seconds (3600 for UTC+1; changes with daylight saving).
    fn utc_offset_secs(&self, at_ms: i64) -> i32;
    /// Now, in whole seconds since the Unix epoch (0 before it).
    fn now_secs(&self) -> u64 {
        u64::try_from(self.now_ms().div_euclid(1000)).unwrap_or(0)
    }
}

/// The computer's clock and time zone.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
            .unwrap_or(0)
    }

    fn utc_offset_secs(&self, at_ms: i64) -> i32 {
        chrono::DateTime::from_timestamp_millis(at_ms)
            .map(|utc| {
                Local
                    .offset_from_utc_datetime(&utc.naive_utc())
                    .fix()
                    .local_minus_utc()
            })
            .unwrap_or(0)
    }
}

/// A clock that only moves when told to, in a fixed time zone (for tests and benches).
#[derive(Debug)]
pub struct FakeClock {
    now: AtomicI64,
    offset_secs: i32,
}

impl FakeClock {
    /// A clock stopped at `now_ms`, `offset_secs` east of UTC.
    pub fn new(now_ms: i64, offset_secs: i32) -> FakeClock {
        FakeClock {
            now: AtomicI64::new(now_ms),
            offset_secs,
        }
    }

    /// A clock stopped at `now_secs` (Unix seconds), in UTC.
    pub fn at_secs(now_secs: u64) -> FakeClock {
        FakeClock::new(
            i64::try_from(now_secs)
                .unwrap_or(i64::MAX)
                .saturating_mul(1000),
            0,
        )
    }

    /// Moves the clock forward by `secs` seconds.
    pub fn advance_secs(&self, secs: u64) {
        self.advance(i64::try_from(secs).unwrap_or(i64::MAX).saturating_mul(1000));
    }

    /// Sets the clock to `now_secs` (Unix seconds).
    pub fn set_secs(&self, now_secs: u64) {
        self.set(
            i64::try_from(now_secs)
                .unwrap_or(i64::MAX)
                .saturating_mul(1000),
        );
    }

    /// Moves the clock forward by `ms`.
    pub fn advance(&self, ms: i64) {
        self.now.fetch_add(ms, Ordering::SeqCst);
    }

    /// Sets the clock.
    pub fn set(&self, now_ms: i64) {
        self.now.store(now_ms, Ordering::SeqCst);
    }
}

impl Clock for FakeClock {
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }

    fn utc_offset_secs(&self, _at_ms: i64) -> i32 {
        self.offset_secs
    }
}

impl<C: Clock + ?Sized> Clock for std::sync::Arc<C> {
    fn now_ms(&self) -> i64 {
        (**self).now_ms()
    }

    fn utc_offset_secs(&self, at_ms: i64) -> i32 {
        (**self).utc_offset_secs(at_ms)
    }
}

/// The learner's day: local calendar days that begin at `start_hour`.
///
/// Day numbers count from 1970-01-01 (local), so day `d` is the date `1970-01-01 + d` and lasts from
/// `start_hour` on that date to `start_hour` the next. With a 4 am start, 03:59 on Tuesday still
/// belongs to Monday. Elapsed days between two reviews are differences of day numbers: a review at
/// 23:00 and one at 05:00 the next morning are 1 day apart, not 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayRule {
    /// Hour of local time (0–23) at which a new day begins.
    pub start_hour: u8,
}

impl DayRule {
    /// The day number of `at_ms` as seen by `clock`'s time zone.
    pub fn day_of(&self, clock: &dyn Clock, at_ms: i64) -> i64 {
        let local_ms = at_ms + i64::from(clock.utc_offset_secs(at_ms)) * 1000;
        (local_ms - i64::from(self.start_hour) * 3_600_000).div_euclid(DAY_MS)
    }

    /// When day `day` begins, in UTC milliseconds.
    pub fn start_of(&self, clock: &dyn Clock, day: i64) -> i64 {
        let local = day * DAY_MS + i64::from(self.start_hour) * 3_600_000;
        let guess = local - i64::from(clock.utc_offset_secs(local)) * 1000;
        local - i64::from(clock.utc_offset_secs(guess)) * 1000
    }

    /// The date of a day number, `2026-11-30`.
    pub fn date(day: i64) -> String {
        chrono::DateTime::from_timestamp(day.saturating_mul(86_400), 0)
            .map(|d| d.date_naive().to_string())
            .unwrap_or_else(|| format!("day {day}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_day_turns_at_the_start_hour_local_time() {
        // 2025-11-30 03:30 local at UTC+9 is still 2025-11-29 for a 4 am start.
        let clock = FakeClock::new(0, 9 * 3600);
        let rule = DayRule { start_hour: 4 };
        let local_0330 = 1_764_473_400_000; // 2025-11-30 03:30 UTC
        let utc = local_0330 - 9 * 3_600_000;
        let day = rule.day_of(&clock, utc);
        assert_eq!(DayRule::date(day), "2025-11-29");
        assert_eq!(
            DayRule::date(rule.day_of(&clock, utc + 3_600_000)),
            "2025-11-30"
        );
        assert_eq!(rule.day_of(&clock, rule.start_of(&clock, day + 1)), day + 1);
        assert_eq!(rule.day_of(&clock, rule.start_of(&clock, day + 1) - 1), day);
    }

    #[test]
    fn seconds_are_the_milliseconds_cut_down() {
        let clock = FakeClock::at_secs(1_800_000_000);
        assert_eq!(clock.now_ms(), 1_800_000_000_000);
        clock.advance(1999);
        assert_eq!(clock.now_secs(), 1_800_000_001);
        clock.advance_secs(7);
        assert_eq!(clock.now_secs(), 1_800_000_008);
        clock.set(-1);
        assert_eq!(clock.now_secs(), 0, "before the epoch reads as 0");
    }

    #[test]
    fn the_system_clock_is_sane() {
        let clock = SystemClock;
        assert!(clock.now_ms() > 1_600_000_000_000);
        assert!(clock.utc_offset_secs(clock.now_ms()).abs() <= 14 * 3600);
    }
}
