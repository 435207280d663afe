//! Which exercises of the ladder are open, and the order a learner walks through them.
//!
//! The ladder opens topic by topic ([`mastery`](super::mastery)): the exercises of a topic at a
//! level open once that topic's level below is mastered (its lowest level with exercises is open
//! from the start), or when the learner unlocked everything. A level is open when any of its
//! topics is.

use super::mastery::Board;
use crate::content::Content;
use crate::content::schema::{ExerciseTemplate, Level};
use crate::progress::{Progress, Status};

/// `(solved, total)` exercises of a level.
pub fn level_counts(content: &Content, progress: &Progress, level: Level) -> (usize, usize) {
    content.level(level).fold((0, 0), |(solved, total), e| {
        let done = progress.of(&e.id).status() == Status::Solved;
        (solved + usize::from(done), total + 1)
    })
}

/// Whether any topic of a level is open ([`Board::level_open`]).
pub fn level_open(board: &Board, level: Level) -> bool {
    board.level_open(level)
}

/// Whether an exercise is open: its topic is open at its level ([`Board::open`]).
pub fn exercise_open(board: &Board, exercise: &ExerciseTemplate) -> bool {
    board.open(&exercise.topic, exercise.level)
}

/// The first level with an open exercise that is not solved (where "Ladder" lands); L1 when every
/// open exercise is solved.
pub fn current_level(content: &Content, progress: &Progress, board: &Board) -> Level {
    Level::ALL
        .into_iter()
        .find(|l| {
            content
                .level(*l)
                .any(|e| exercise_open(board, e) && progress.of(&e.id).status() != Status::Solved)
        })
        .unwrap_or(Level::L1)
}

/// The exercise `step` places after (or before, when negative) `id` in ladder order, counting only
/// open exercises (an exercise of a locked topic-level is stepped over).
pub fn neighbour(content: &Content, board: &Board, id: &str, step: isize) -> Option<String> {
    let open: Vec<&str> = content
        .exercises
        .iter()
        .filter(|e| exercise_open(board, e) || e.id == id)
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
    use super::super::mastery::{MASTER_AFTER, Recall};
    use super::*;

    fn board(content: &Content, progress: &Progress) -> Board {
        Board::new(content, progress, Recall::new())
    }

    fn solve(progress: &mut Progress, content: &Content, level: Level, topic: &str, n: usize) {
        for e in content.level(level).filter(|e| e.topic == topic).take(n) {
            progress.entry(&e.id).solved = true;
        }
    }

    #[test]
    fn three_solved_of_other_topics_open_nothing_of_coalescing() {
        // The old rule opened the whole of L2 after any 3 solved exercises of L1.
        let content = Content::builtin();
        let mut progress = Progress::default();
        solve(&mut progress, &content, Level::L1, "banks", 3);
        let coalescing_l2 = content
            .level(Level::L2)
            .find(|e| e.topic == "coalescing")
            .expect("an L2 coalescing exercise");
        assert!(!exercise_open(&board(&content, &progress), coalescing_l2));
        solve(
            &mut progress,
            &content,
            Level::L1,
            "coalescing",
            MASTER_AFTER,
        );
        assert!(exercise_open(&board(&content, &progress), coalescing_l2));
        let banks_l3 = content
            .level(Level::L3)
            .find(|e| e.topic == "banks")
            .expect("an L3 banks exercise");
        assert!(
            !exercise_open(&board(&content, &progress), banks_l3),
            "L2 · banks is not mastered"
        );
        assert!(level_open(&board(&content, &progress), Level::L2));
        progress.unlock_all = true;
        assert!(level_open(&board(&content, &progress), Level::L5));
        assert!(exercise_open(&board(&content, &progress), banks_l3));
    }

    #[test]
    fn the_ladder_lands_on_the_first_level_with_an_open_unsolved_exercise() {
        let content = Content::builtin();
        let mut progress = Progress::default();
        assert_eq!(
            current_level(&content, &progress, &board(&content, &progress)),
            Level::L1
        );
        for e in content.level(Level::L1) {
            progress.entry(&e.id).solved = true;
        }
        assert_eq!(
            current_level(&content, &progress, &board(&content, &progress)),
            Level::L2
        );
    }

    #[test]
    fn neighbours_stay_within_open_exercises() {
        let content = Content::builtin();
        let progress = Progress::default();
        let board = board(&content, &progress);
        let l1: Vec<&str> = content.level(Level::L1).map(|e| e.id.as_str()).collect();
        let last = l1[l1.len() - 1];
        assert_eq!(
            neighbour(&content, &board, l1[0], 1).as_deref(),
            Some(l1[1])
        );
        assert_eq!(neighbour(&content, &board, l1[0], -1), None);
        // After L1 come the open L2 exercises: those of topics without L1 exercises.
        let after = neighbour(&content, &board, last, 1).expect("an open L2 exercise");
        let next = content.exercise(&after).expect("an exercise");
        assert_eq!(next.level, Level::L2);
        assert!(
            ["tiling", "latency", "roofline"].contains(&next.topic.as_str()),
            "{}",
            next.topic
        );
        assert_eq!(neighbour(&content, &board, "no-such-id", 1), None);
    }
}
