//! "Practise what you missed": the exercises a learner answered wrong, brought back in an order that
//! mixes topics.

use crate::content::Content;
use crate::progress::Progress;

/// The exercises to practise again ([`crate::progress::ExerciseProgress::missed`]: answered wrong
/// or right only after the answer was shown, and not answered right since), interleaved across
/// topics: never two of one topic in a row while another topic has one left. At each step the
/// topic with the most left goes next (the first in ladder order on a tie), so the same topic is
/// repeated only at the end, when nothing else is left. Within a topic, ladder order.
///
/// Three coalescing misses `c1 c2 c3` and one banks miss `b1` give `c1 b1 c2 c3`.
pub fn queue(content: &Content, progress: &Progress) -> Vec<String> {
    let missed = content
        .exercises
        .iter()
        .filter(|e| progress.of(&e.id).missed())
        .map(|e| (e.topic.as_str(), e.id.as_str()));
    interleave(missed)
}

/// `(topic, id)` pairs in order, interleaved as [`queue`] describes.
pub fn interleave<'a>(items: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<String> {
    let mut groups: Vec<(&str, std::collections::VecDeque<&str>)> = Vec::new();
    for (topic, id) in items {
        match groups.iter_mut().find(|(t, _)| *t == topic) {
            Some((_, ids)) => ids.push_back(id),
            None => groups.push((topic, [id].into())),
        }
    }
    let mut out = Vec::new();
    let mut last: Option<&str> = None;
    loop {
        let pick = groups
            .iter()
            .enumerate()
            .filter(|(_, (topic, ids))| !ids.is_empty() && Some(*topic) != last)
            // The most left first; `max_by_key` keeps the last of equals, so compare reversed index.
            .max_by_key(|(i, (_, ids))| (ids.len(), std::cmp::Reverse(*i)))
            .map(|(i, _)| i)
            .or_else(|| groups.iter().position(|(_, ids)| !ids.is_empty()));
        let Some(i) = pick else {
            break;
        };
        let (topic, ids) = &mut groups[i];
        if let Some(id) = ids.pop_front() {
            out.push(id.to_string());
        }
        last = Some(*topic);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::schema::Level;

    #[test]
    fn topics_alternate_while_another_has_one_left() {
        let items = [
            ("coalescing", "c1"),
            ("coalescing", "c2"),
            ("coalescing", "c3"),
            ("banks", "b1"),
        ];
        assert_eq!(interleave(items), ["c1", "b1", "c2", "c3"]);
        let items = [
            ("a", "a1"),
            ("a", "a2"),
            ("b", "b1"),
            ("b", "b2"),
            ("c", "c1"),
        ];
        let order = interleave(items);
        assert_eq!(order, ["a1", "b1", "a2", "b2", "c1"]);
        assert!(interleave([]).is_empty());
    }

    #[test]
    fn never_two_of_a_topic_in_a_row_when_avoidable() {
        // Every mix of up to 4 topics with up to 4 items each.
        for mask in 0..(5u32.pow(4)) {
            let counts: Vec<u32> = (0..4).map(|t| (mask / 5u32.pow(t)) % 5).collect();
            let names: Vec<(String, String)> = counts
                .iter()
                .enumerate()
                .flat_map(|(t, &n)| (0..n).map(move |k| (format!("t{t}"), format!("t{t}-{k}"))))
                .collect();
            let order = interleave(names.iter().map(|(t, i)| (t.as_str(), i.as_str())));
            assert_eq!(order.len(), names.len());
            let topic = |id: &str| id.split('-').next().unwrap_or_default().to_string();
            for (at, pair) in order.windows(2).enumerate() {
                if topic(&pair[0]) == topic(&pair[1]) {
                    let left_other = order[at + 1..]
                        .iter()
                        .any(|id| topic(id) != topic(&pair[0]));
                    assert!(!left_other, "{order:?} for {counts:?}");
                }
            }
        }
    }

    #[test]
    fn wrong_and_seen_exercises_are_practised_until_solved() {
        let content = Content::builtin();
        let mut progress = Progress::default();
        assert!(queue(&content, &progress).is_empty());
        let l1: Vec<String> = content.level(Level::L1).map(|e| e.id.clone()).collect();
        progress.entry(&l1[0]).attempts = 1; // wrong
        progress.entry(&l1[1]).seen = true; // seen
        progress.entry(&l1[1]).attempts = 2;
        progress.entry(&l1[2]).solved = true; // solved: not practised
        progress.entry(&l1[2]).attempts = 1;
        let solved_then_missed = l1[3].clone();
        let entry = progress.entry(&solved_then_missed);
        entry.solved = true;
        entry.missed = true;
        let queued = queue(&content, &progress);
        assert_eq!(queued.len(), 3, "{queued:?}");
        assert!(queued.contains(&l1[0]) && queued.contains(&l1[1]));
        assert!(!queued.contains(&l1[2]));
        assert!(queued.contains(&solved_then_missed));
        let entry = progress.entry(&l1[0]);
        entry.solved = true;
        entry.missed = false;
        assert!(!queue(&content, &progress).contains(&l1[0]), "solved now");
    }
}
