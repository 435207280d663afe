//! Student packs: the lab file without its secret, and one ticket per student (`lab publish`).
//!
//! A ticket holds what one student's offline lab needs and nothing more: their steps (exercise and
//! variant seed, re-rolls applied), their extra minutes, and the key their results are sealed with
//! ([`seed::chain_key`]). With it a student's tutor runs and seals their own lab; it cannot give
//! another student's numbers, join code or seal, and the lab's secret is nowhere in the pack. What
//! an offline lab proves is still limited: a ticket's seeds give its holder their own answers (the
//! tutor must grade them), and the holder may rewrite their own results.

use super::LabError;
use super::file::{Lab, comment_spans};
use super::plan::{Item, plan};
use super::roster::{Entry, valid_student};
use super::seed;
use crate::content::Content;
use serde::{Deserialize, Serialize};

/// The ticket format this build writes and reads.
pub const FORMAT: u32 = 1;

/// One step of a ticket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TicketStep {
    /// Step number, 1-based.
    pub step: usize,
    /// Exercise id, or the puzzle's id when `puzzle`.
    pub exercise: String,
    /// The step is a kernel puzzle.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub puzzle: bool,
    /// Variant seed.
    pub seed: u64,
    /// Times re-rolled.
    pub roll: u32,
}

/// One student's ticket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ticket {
    /// [`FORMAT`].
    pub ticket: u32,
    /// Lab id.
    pub lab: String,
    /// Lab version.
    pub version: u32,
    /// Student id.
    pub student: String,
    /// Extra minutes from the roster.
    #[serde(default)]
    pub extra_minutes: u32,
    /// The key the student's results are sealed with.
    pub key: String,
    /// The student's steps.
    pub steps: Vec<TicketStep>,
}

impl Ticket {
    /// The ticket of `student` for the instructor's lab (with its secret).
    pub fn issue(
        lab: &Lab,
        content: &Content,
        student: &Entry,
        file: &str,
        text: &str,
    ) -> Result<Ticket, LabError> {
        let items = plan(lab, content, student, file, text)?;
        Ok(Ticket {
            ticket: FORMAT,
            lab: lab.id.clone(),
            version: lab.version,
            student: student.student.clone(),
            extra_minutes: student.extra_minutes,
            key: seed::chain_key(lab, &student.student),
            steps: items
                .into_iter()
                .map(|i| TicketStep {
                    step: i.step,
                    exercise: i.exercise,
                    puzzle: i.puzzle,
                    seed: i.seed,
                    roll: i.roll,
                })
                .collect(),
        })
    }

    /// The ticket as written to its file.
    pub fn to_text(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Reads a ticket; `file` names it in messages.
    pub fn parse(file: &str, text: &str) -> Result<Ticket, LabError> {
        let ticket: Ticket = serde_json::from_str(text).map_err(|e| LabError::Syntax {
            file: file.to_string(),
            line: e.line().max(1),
            column: e.column().max(1),
            message: format!("not a lab ticket ({e})"),
        })?;
        if ticket.ticket != FORMAT {
            return Err(LabError::Closed(format!(
                "{file}: a ticket of format {}, and this warpdrill reads format {FORMAT}",
                ticket.ticket
            )));
        }
        if !valid_student(&ticket.student) {
            return Err(LabError::Closed(format!(
                "{file}: `{}` is not a student id",
                ticket.student
            )));
        }
        Ok(ticket)
    }

    /// The student's steps, after checking that the ticket is `student`'s for this lab and
    /// version and that every exercise exists.
    pub fn items(
        &self,
        file: &str,
        lab: &Lab,
        content: &Content,
        student: &str,
    ) -> Result<Vec<Item>, LabError> {
        let refuse = |why: String| Err(LabError::Closed(format!("{file}: {why}")));
        if self.lab != lab.id || self.version != lab.version {
            return refuse(format!(
                "this ticket is for lab `{}` version {}, not `{}` version {}; ask your instructor for the ticket of this lab",
                self.lab, self.version, lab.id, lab.version
            ));
        }
        if self.student != student {
            return refuse(format!(
                "this ticket is `{}`'s, not `{student}`'s",
                self.student
            ));
        }
        if self.steps.len() != lab.item_count()
            || self.steps.iter().enumerate().any(|(i, s)| s.step != i + 1)
        {
            return refuse(format!(
                "this ticket has {} and the lab {}; ask your instructor for a new ticket",
                crate::format::count(self.steps.len() as u64, "step"),
                lab.item_count()
            ));
        }
        let missing = |s: &&TicketStep| {
            if s.puzzle {
                crate::puzzle::find(&s.exercise, crate::i18n::Lang::En).is_none()
            } else {
                content.exercise(&s.exercise).is_none()
            }
        };
        if let Some(step) = self.steps.iter().find(missing) {
            return refuse(format!(
                "step {} names {} `{}`, which this warpdrill does not have",
                step.step,
                if step.puzzle { "puzzle" } else { "exercise" },
                step.exercise
            ));
        }
        Ok(self
            .steps
            .iter()
            .map(|s| Item {
                step: s.step,
                exercise: s.exercise.clone(),
                puzzle: s.puzzle,
                seed: s.seed,
                roll: s.roll,
            })
            .collect())
    }

    /// The student, as the roster had them when the ticket was issued.
    pub fn entry(&self) -> Entry {
        Entry {
            student: self.student.clone(),
            extra_minutes: self.extra_minutes,
            ..Entry::default()
        }
    }
}

/// The lab file's text without its `secret` field, every other line (comments included) as
/// written, with a first line saying what the file is. Refused when the text has no secret
/// field to take out.
pub fn pack_text(lab: &Lab, text: &str) -> Result<String, LabError> {
    let comments = comment_spans(text);
    let bytes = text.as_bytes();
    let skip_space = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let field = text.match_indices("secret").map(|(at, _)| at).find(|&at| {
        let outside = !comments.iter().any(|(from, to)| (*from..*to).contains(&at));
        let word_start =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let colon = skip_space(at + "secret".len());
        outside && word_start && bytes.get(colon) == Some(&b':')
    });
    let Some(start) = field else {
        return Err(LabError::Closed(
            "this lab file has no `secret` to take out (is it a student pack already?)".into(),
        ));
    };
    let mut i = skip_space(skip_space(start + "secret".len()) + 1);
    if bytes.get(i) != Some(&b'"') {
        return Err(LabError::Closed(
            "the lab's `secret` is not a plain string".into(),
        ));
    }
    i += 1;
    while i < bytes.len() && bytes[i] != b'"' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    let mut end = skip_space(i + 1);
    if bytes.get(end) == Some(&b',') {
        end += 1;
    }
    // Take the line out whole when the field is alone on it.
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |n| end + n + 1);
    let (from, to) =
        if text[line_start..start].trim().is_empty() && text[end..line_end].trim().is_empty() {
            (line_start, line_end)
        } else {
            (start, end)
        };
    Ok(format!(
        "// Student pack of lab `{}` version {}: it holds no secret. Start it with\n\
         // `warpdrill lab start THIS_FILE --student ID --ticket tickets/ID.ticket`.\n{}{}",
        lab.id,
        lab.version,
        &text[..from],
        &text[to..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAB: &str = "// Change `secret` before class.\nLab(\n  id: \"pack\", title: \"Pack\", version: 2,\n  secret: \"a \\\"quoted\\\" secret phrase\",\n  steps: [Exercise(\"l1-sector-size\"), Draw(count: 2, topic: \"banks\", level: L3)],\n  points: [10, 5],\n)";

    fn alice() -> Entry {
        Entry {
            student: "alice".into(),
            extra_minutes: 5,
            rerolls: vec![2],
            ..Entry::default()
        }
    }

    #[test]
    fn a_pack_reads_as_the_lab_without_its_secret() {
        let lab = Lab::parse("pack.ron", LAB).unwrap();
        let pack = pack_text(&lab, LAB).unwrap();
        assert!(!pack.contains("quoted"), "{pack}");
        assert!(
            pack.contains("// Change `secret` before class."),
            "comments stay"
        );
        let read = Lab::parse("pack.ron", &pack).unwrap();
        assert!(read.is_pack());
        assert_eq!(
            Lab {
                secret: lab.secret.clone(),
                ..read.clone()
            },
            lab
        );
        assert!(
            pack_text(&read, &pack).is_err(),
            "a pack has no secret to take out"
        );
        // Nothing in a pack computes a key or a plan.
        let content = Content::builtin();
        let err = plan(&read, &content, &alice(), "pack.ron", &pack)
            .unwrap_err()
            .to_string();
        assert!(err.contains("student pack"), "{err}");
    }

    #[test]
    fn a_ticket_gives_its_student_the_steps_of_the_instructors_lab_and_nobody_elses() {
        let lab = Lab::parse("pack.ron", LAB).unwrap();
        let content = Content::builtin();
        let ticket = Ticket::issue(&lab, &content, &alice(), "pack.ron", LAB).unwrap();
        let read = Ticket::parse("alice.ticket", &ticket.to_text()).unwrap();
        assert_eq!(read, ticket);
        assert!(
            !ticket.to_text().contains("quoted"),
            "no secret in a ticket"
        );
        let pack = Lab::parse("p.ron", &pack_text(&lab, LAB).unwrap()).unwrap();
        let items = read
            .items("alice.ticket", &pack, &content, "alice")
            .unwrap();
        assert_eq!(
            items,
            plan(&lab, &content, &alice(), "pack.ron", LAB).unwrap()
        );
        assert_eq!(items[1].roll, 1, "the re-roll is in the ticket");
        assert_eq!(read.entry().extra_minutes, 5);
        assert_eq!(read.key, seed::chain_key(&lab, "alice"));
        let err = read
            .items("alice.ticket", &pack, &content, "bob")
            .unwrap_err()
            .to_string();
        assert!(err.contains("`alice`'s, not `bob`'s"), "{err}");
        let mut other = pack.clone();
        other.version = 3;
        let err = read
            .items("alice.ticket", &other, &content, "alice")
            .unwrap_err()
            .to_string();
        assert!(err.contains("version 2, not `pack` version 3"), "{err}");
        let err = Ticket::parse("t", "{\"ticket\": 1}")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a lab ticket"), "{err}");
    }
}
