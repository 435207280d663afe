//! Exchange with Anki and the FSRS optimizer: a deck as Anki's tab-separated text (export and
//! import), and the review log as the optimizer's CSV.

use super::SrsError;
use super::deck::Deck;
use super::log::Kind;
use crate::content::schema::{Card, DeckFile};
use std::collections::{HashMap, HashSet};

/// Tags that carry warpdrill's own bookkeeping start with this (`warpdrill::banks`).
pub const TAG_PREFIX: &str = "warpdrill::";

/// The cards as a file Anki imports directly (File → Import): a header naming the separator, plain
/// text (no HTML), the GUID column (the card id, so re-importing updates the same notes) and the
/// tags column; then `id, front, back, tags`. The topic is the tag `warpdrill::<topic>`; a drill
/// card's back names the exercise it draws from; a drill and a skill are tags too
/// (`warpdrill::drill::<exercise>`, `warpdrill::skill::<skill>`).
pub fn export(cards: &[Card]) -> String {
    let mut out = String::from("#separator:tab\n#html:false\n#guid column:1\n#tags column:4\n");
    for card in cards {
        let mut tags: Vec<String> = card.tags.iter().map(|t| t.replace(' ', "_")).collect();
        tags.push(format!("{TAG_PREFIX}{}", card.topic));
        if let Some(drill) = &card.drill {
            tags.push(format!("{TAG_PREFIX}drill::{drill}"));
        }
        if let Some(skill) = &card.skill {
            tags.push(format!("{TAG_PREFIX}skill::{skill}"));
        }
        let tags = tags.join(" ");
        out.push_str(&crate::text::tsv_row([
            card.id.as_str(),
            &card.front,
            &card.back,
            &tags,
        ]));
    }
    out
}

/// Splits one record of Anki's text format: fields separated by `sep`, a field in double quotes may
/// hold the separator, newlines and doubled quotes. Returns the fields and the rest of the text.
fn split_record(text: &str, sep: char) -> (Vec<String>, &str) {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = text.char_indices().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some((i, c)) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek().is_some_and(|&(_, n)| n == '"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' if at_start => {
                quoted = true;
                at_start = false;
            }
            '\n' => {
                fields.push(std::mem::take(&mut field));
                return (fields, &text[i + 1..]);
            }
            '\r' => {}
            c if c == sep => {
                fields.push(std::mem::take(&mut field));
                at_start = true;
            }
            c => {
                field.push(c);
                at_start = false;
            }
        }
    }
    fields.push(field);
    (fields, "")
}

fn strip_html(text: &str) -> String {
    let text = text
        .replace("<br>", "\n")
        .replace("<br/>", "\n")
        .replace("<br />", "\n")
        .replace("<div>", "\n");
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .trim()
        .to_string()
}

fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    out.trim_end_matches('-').to_string()
}

use crate::content::validate::valid_id;

/// Reads an Anki text export (Notes in Plain Text, or a file written by [`export`]) into cards of
/// `topic`. Header lines (`#separator:`, `#html:`, `#guid column:`, `#tags column:`, …) are
/// honoured; without them the separator is a tab and the columns are front, back. HTML is turned
/// into plain text unless the file says `#html:false`. Ids come from the GUID column when it holds a
/// valid id, else from the topic and the front.
pub fn import(text: &str, topic: &str, file: &str) -> Result<Vec<Card>, SrsError> {
    let mut sep = '\t';
    let mut html = true;
    let mut guid_col: Option<usize> = None;
    let mut tags_col: Option<usize> = None;
    let mut skip_cols: HashSet<usize> = HashSet::new();
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut line = 0;
    while let Some(header) = rest.strip_prefix('#') {
        line += 1;
        let (first, after) = header.split_once('\n').unwrap_or((header, ""));
        rest = after;
        let Some((key, value)) = first.trim_end_matches('\r').split_once(':') else {
            continue;
        };
        let value = value.trim();
        let column = || value.parse::<usize>().ok().filter(|&c| c >= 1);
        match key.trim() {
            "separator" => {
                sep = match value.to_ascii_lowercase().as_str() {
                    "tab" => '\t',
                    "comma" => ',',
                    "semicolon" => ';',
                    "space" => ' ',
                    "pipe" => '|',
                    "colon" => ':',
                    other => other.chars().next().unwrap_or('\t'),
                }
            }
            "html" => html = value != "false",
            "guid column" => guid_col = column(),
            "tags column" => tags_col = column(),
            "notetype column" | "deck column" => {
                if let Some(c) = column() {
                    skip_cols.insert(c);
                }
            }
            _ => {}
        }
    }
    let mut cards = Vec::new();
    let mut ids: HashMap<String, usize> = HashMap::new();
    while !rest.is_empty() {
        line += 1;
        let (fields, after) = split_record(rest, sep);
        rest = after;
        if fields.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let mut guid = None;
        let mut tags = Vec::new();
        let mut values = Vec::new();
        for (i, field) in fields.into_iter().enumerate() {
            let column = i + 1;
            if Some(column) == guid_col {
                guid = Some(field);
            } else if Some(column) == tags_col {
                tags = field.split_whitespace().map(str::to_string).collect();
            } else if !skip_cols.contains(&column) {
                values.push(if html { strip_html(&field) } else { field });
            }
        }
        let mut values = values.into_iter();
        let (Some(front), Some(back)) = (values.next(), values.next()) else {
            return Err(SrsError::Parse {
                file: file.to_string(),
                line,
                message: format!(
                    "a note needs a front and a back (fields separated by {})",
                    if sep == '\t' {
                        "tabs".to_string()
                    } else {
                        format!("`{sep}`")
                    }
                ),
            });
        };
        let drill = tags.iter().find_map(|t| {
            t.strip_prefix(TAG_PREFIX)
                .and_then(|t| t.strip_prefix("drill::"))
                .map(str::to_string)
        });
        let skill = tags.iter().find_map(|t| {
            t.strip_prefix(TAG_PREFIX)
                .and_then(|t| t.strip_prefix("skill::"))
                .map(str::to_string)
        });
        tags.retain(|t| !t.starts_with(TAG_PREFIX));
        let base = match guid.filter(|g| valid_id(g)) {
            Some(id) => id,
            None => {
                let s = slug(&front);
                if s.is_empty() {
                    format!("{topic}-card")
                } else {
                    format!("{topic}-{s}")
                }
            }
        };
        let seen = ids.entry(base.clone()).or_insert(0);
        *seen += 1;
        let id = if *seen == 1 {
            base
        } else {
            format!("{base}-{seen}")
        };
        cards.push(Card {
            id,
            topic: topic.to_string(),
            tags,
            front,
            back,
            drill,
            skill,
            rev: 0,
        });
    }
    Ok(cards)
}

/// The cards as a RON deck file for `--content`.
pub fn to_ron(cards: Vec<Card>) -> String {
    let config = ron::ser::PrettyConfig::default().struct_names(true);
    let deck = DeckFile { cards };
    // Cards are plain strings and numbers, which RON always encodes.
    ron::ser::to_string_pretty(&deck, config).unwrap_or_default() + "\n"
}

/// The log in the FSRS optimizer's CSV format: `card_id,review_time,review_rating,review_state,
/// review_duration` — card ids numbered in order of first appearance, times in UTC milliseconds,
/// states 0 new, 1 learning, 2 review, 3 relearning (before the rating), durations in milliseconds.
/// Undone ratings are left out.
pub fn export_log(deck: &Deck) -> String {
    let mut out = String::from("card_id,review_time,review_rating,review_state,review_duration\n");
    let mut numbers: HashMap<(&str, u32), usize> = HashMap::new();
    for (record, undone) in deck.records() {
        if undone || record.kind != Kind::Rate {
            continue;
        }
        let Some(rating) = record.rating else {
            continue;
        };
        let next = numbers.len() + 1;
        let id = *numbers
            .entry((record.card.as_str(), record.rev))
            .or_insert(next);
        out.push_str(&format!(
            "{id},{},{rating},{},{}\n",
            record.time,
            record.before.map_or(0, |p| p.number()),
            record.duration_ms.unwrap_or(0)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Content;

    #[test]
    fn exported_cards_import_as_the_same_cards() {
        let content = Content::builtin();
        let text = export(&content.cards);
        assert!(text.starts_with("#separator:tab\n#html:false\n"));
        assert!(text.contains("#tags column:"));
        let back = import(&text, "imported", "cards.txt").unwrap();
        let expected: Vec<Card> = content
            .cards
            .iter()
            .map(|c| Card {
                topic: "imported".into(),
                ..c.clone()
            })
            .collect();
        assert_eq!(back, expected);
    }

    #[test]
    fn awkward_fields_survive() {
        let card = Card {
            id: "odd".into(),
            topic: "banks".into(),
            tags: vec!["two words".into()],
            front: "tab\there, \"quoted\"".into(),
            back: "line one\nline two".into(),
            drill: None,
            skill: None,
            rev: 0,
        };
        let back = import(&export(std::slice::from_ref(&card)), "banks", "x").unwrap();
        assert_eq!(back[0].front, card.front);
        assert_eq!(back[0].back, card.back);
        assert_eq!(back[0].tags, vec!["two_words"]);
    }

    #[test]
    fn a_plain_anki_export_with_html() {
        let text = "#separator:tab\n#html:true\n#tags column:3\nWhat is <b>a bank</b>?\tA 4-byte&nbsp;column<br>of 32\tbanks smem\nWhat is <b>a bank</b>?\tsame front\t\n";
        let cards = import(text, "banks", "notes.txt").unwrap();
        assert_eq!(cards[0].front, "What is a bank?");
        assert_eq!(cards[0].back, "A 4-byte column\nof 32");
        assert_eq!(cards[0].tags, vec!["banks", "smem"]);
        assert_eq!(cards[0].id, "banks-what-is-a-bank");
        assert_eq!(cards[1].id, "banks-what-is-a-bank-2");
        let ron = to_ron(cards);
        assert!(ron.starts_with("Deck("), "{ron}");
        let missing = import("only a front\n", "banks", "notes.txt").unwrap_err();
        assert!(missing.to_string().starts_with("notes.txt:1:"), "{missing}");
    }
}
