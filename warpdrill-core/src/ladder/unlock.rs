//! Which levels of the ladder are open, and the order a learner walks through the exercises.
//!
//! L1 is always open; a later level opens once [`UNLOCK_AFTER`] exercises of the level before are
//! solved (or all of them, if it has fewer), or when the learner unlocked everything.

use crate::content::Content;
use crate::content::schema::Level;
use crate::progress::{Progress, Status};

/// Exercises of a level to solve before the next level opens.
pub const UNLOCK_AFTER: usize = 3;

/// `(solved, total)` exercises of a level.
pub fn level_counts(content: &Content, progress: &Progress, level: Level) -> (usize, usize) {
    content.level(level).fold((0, 0), |(solved, total), e| {
        let done = progress.of(&e.id).status() == Status::Solved;
        (solved + usize::from(done), total + 1)
    })
}

/// Whether a level is open: L1 always; later levels once [`UNLOCK_AFTER`] exercises of the level
/// before are solved (or all of them, if it has fewer), or when the learner unlocked everything.
pub fn level_open(content: &Content, progress: &Progress, level: Level) -> bool {
    if progress.unlock_all || level == Level::L1 {
        return true;
    }
    let previous = Level::ALL[level.index() - 1];
    let (solved, total) = level_counts(content, progress, previous);
    solved >= UNLOCK_AFTER.min(total)
}

/// The first level that is open and not fully solved (where "Ladder" lands).
pub fn current_level(content: &Content, progress: &Progress) -> Level {
    Level::ALL
        .into_iter()
        .filter(|l| level_open(content, progress, *l))
        .find(|l| {
            let (solved, total) = level_counts(content, progress, *l);
            solved < total
        })
        .unwrap_or(Level::L1)
}

/// The exercise `step` places after (or before, when negative) `id` in ladder order, counting only
/// exercises of open levels.
pub fn neighbour(content: &Content, progress: &Progress, id: &str, step: isize) -> Option<String> {
    let open: Vec<&str> = content
        .exercises
        .iter()
        .filter(|e| level_open(content, progress, e.level))
        .map(|e| e.id.as_str())
        .collect();
    let at = open
        .iter()
        .position(|e| *e == id)?
        .checked_add_signed(step)?;
    open.get(at).map(|s| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(progress: &mut Progress, content: &Content, level: Level, n: usize) {
        for e in content.level(level).take(n) {
            progress.entry(&e.id).solved = true;
        }
    }

    #[test]
    fn a_level_opens_after_three_solved_below_it() {
        let content = Content::builtin();
        let mut progress = Progress::default();
        assert!(level_open(&content, &progress, Level::L1));
        assert!(!level_open(&content, &progress, Level::L2));
        solve(&mut progress, &content, Level::L1, UNLOCK_AFTER - 1);
        assert!(!level_open(&content, &progress, Level::L2));
        solve(&mut progress, &content, Level::L1, UNLOCK_AFTER);
        assert!(level_open(&content, &progress, Level::L2));
        assert!(!level_open(&content, &progress, Level::L3));
        assert_eq!(current_level(&content, &progress), Level::L1);
        progress.unlock_all = true;
        assert!(level_open(&content, &progress, Level::L5));
    }

    #[test]
    fn neighbours_stay_within_open_levels() {
        let content = Content::builtin();
        let progress = Progress::default();
        let l1: Vec<&str> = content.level(Level::L1).map(|e| e.id.as_str()).collect();
        let last = l1[l1.len() - 1];
        assert_eq!(
            neighbour(&content, &progress, l1[0], 1).as_deref(),
            Some(l1[1])
        );
        assert_eq!(neighbour(&content, &progress, l1[0], -1), None);
        assert_eq!(
            neighbour(&content, &progress, last, 1),
            None,
            "L2 is locked"
        );
        assert_eq!(neighbour(&content, &progress, "no-such-id", 1), None);
    }
}
