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

/// A field of HTML as plain text, through an HTML parser (entities such as `&hellip;` and
/// `&#8212;` decoded, list items on lines of their own, breaks and blocks as line breaks), with the
/// number of images it held: a card is text, so an image is left out (its alt text kept) and
/// counted, to be reported.
fn html_text(field: &str) -> (String, usize) {
    let images = field.to_ascii_lowercase().matches("<img").count();
    let text = html2text::config::plain_no_decorate()
        .string_from_read(field.as_bytes(), 4096)
        .unwrap_or_else(|_| field.to_string());
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let text = lines.join("\n").replace('\u{a0}', " ");
    (text.trim().to_string(), images)
}

/// One cloze deletion of a note: `{{c2::answer}}` or `{{c2::answer::hint}}`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Cloze {
    number: u32,
    /// Byte range of the whole `{{…}}` in the text.
    span: std::ops::Range<usize>,
    answer: String,
    hint: Option<String>,
}

/// The cloze deletions of `text`, in order.
fn clozes(text: &str) -> Vec<Cloze> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find("{{c") {
        let start = from + k;
        let rest = &text[start + 3..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let Some(number) = rest[..digits].parse::<u32>().ok().filter(|_| digits > 0) else {
            from = start + 3;
            continue;
        };
        let body_start = start + 3 + digits;
        let Some(body) = text[body_start..].strip_prefix("::") else {
            from = body_start;
            continue;
        };
        let Some(close) = body.find("}}") else { break };
        let inner = &body[..close];
        let (answer, hint) = match inner.split_once("::") {
            Some((a, h)) => (a.to_string(), Some(h.to_string())),
            None => (inner.to_string(), None),
        };
        let end = body_start + 2 + close + 2;
        found.push(Cloze {
            number,
            span: start..end,
            answer,
            hint,
        });
        from = end;
    }
    found
}

/// `text` with its clozes filled in, except those of number `gap`, shown as `[…]` (or `[hint]`).
fn fill(text: &str, all: &[Cloze], gap: Option<u32>) -> String {
    let mut out = String::new();
    let mut at = 0;
    for c in all {
        out.push_str(&text[at..c.span.start]);
        if Some(c.number) == gap {
            out.push('[');
            out.push_str(c.hint.as_deref().unwrap_or("…"));
            out.push(']');
        } else {
            out.push_str(&c.answer);
        }
        at = c.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The cards of a cloze note, one per cloze number: the front with that number's gaps as `[…]`
/// (or `[hint]`) and the other clozes shown, the back with every gap filled and the note's extra
/// field after it.
fn cloze_cards(text: &str, extra: &str, all: &[Cloze]) -> Vec<(u32, String, String)> {
    let mut numbers: Vec<u32> = all.iter().map(|c| c.number).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let filled = fill(text, all, None);
    let back = if extra.trim().is_empty() {
        filled
    } else {
        format!("{filled}\n\n{}", extra.trim())
    };
    numbers
        .into_iter()
        .map(|n| (n, fill(text, all, Some(n)), back.clone()))
        .collect()
}

/// What an import made of an export: the cards, and what a learner should be told about it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    /// The cards, in the export's order.
    pub cards: Vec<Card>,
    /// Images left out of the cards' text (their alt text kept).
    pub images: usize,
    /// Cloze notes, each made into one card per cloze number.
    pub cloze_notes: usize,
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
    import_notes(text, topic, file).map(|imported| imported.cards)
}

/// [`import`], with the images left out and the cloze notes split counted. A cloze note
/// (`{{c1::…}}` in its first field) becomes one card per cloze number, ids `<id>-c1`, `<id>-c2`…;
/// its second field, if any, is the extra text shown on the back.
pub fn import_notes(text: &str, topic: &str, file: &str) -> Result<Imported, SrsError> {
    let mut imported = Imported::default();
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
                values.push(if html {
                    let (text, images) = html_text(&field);
                    imported.images += images;
                    text
                } else {
                    field
                });
            }
        }
        let cloze = values.first().map(|f| clozes(f)).unwrap_or_default();
        let mut values = values.into_iter();
        let front = values.next();
        let back = values
            .next()
            .or_else(|| (!cloze.is_empty()).then(String::new));
        let (Some(front), Some(back)) = (front, back) else {
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
                // A cloze note is named by its text with the gaps filled.
                let s = slug(&fill(&front, &cloze, None));
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
        if cloze.is_empty() {
            imported.cards.push(Card {
                id,
                topic: topic.to_string(),
                tags,
                front,
                back,
                drill,
                skill,
                rev: 0,
            });
            continue;
        }
        imported.cloze_notes += 1;
        for (number, cloze_front, cloze_back) in cloze_cards(&front, &back, &cloze) {
            imported.cards.push(Card {
                id: format!("{id}-c{number}"),
                topic: topic.to_string(),
                tags: tags.clone(),
                front: cloze_front,
                back: cloze_back,
                drill: drill.clone(),
                skill: skill.clone(),
                rev: 0,
            });
        }
    }
    Ok(imported)
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

    #[test]
    fn html_is_read_as_html_entities_lists_and_images_included() {
        let text = "#html:true\nWait&hellip; a dash&#8212;and &lt;b&gt;\t<ul><li>sectors</li><li>banks</li></ul><img src=\"a.png\" alt=\"the grid\"><div>next</div>\n";
        let imported = import_notes(text, "banks", "notes.txt").unwrap();
        let card = &imported.cards[0];
        assert_eq!(card.front, "Wait… a dash—and <b>");
        let lines: Vec<&str> = card.back.lines().collect();
        assert!(lines.iter().any(|l| l.ends_with("sectors")), "{lines:?}");
        assert!(
            lines.iter().any(|l| l.ends_with("banks")),
            "items on lines of their own: {lines:?}"
        );
        assert!(
            card.back.contains("the grid"),
            "the alt text is kept: {}",
            card.back
        );
        assert!(card.back.contains("next"));
        assert_eq!(imported.images, 1);
    }

    #[test]
    fn a_cloze_note_is_one_card_per_cloze_with_the_answer_hidden_on_the_front() {
        let text = "{{c1::Shared memory}} has {{c2::32::how many?}} banks; {{c1::it}} is per block\tSee the banks lesson.\n{{c1::only one}} cloze and no back\n";
        let imported = import_notes(text, "banks", "notes.txt").unwrap();
        assert_eq!(imported.cloze_notes, 2);
        let ids: Vec<&str> = imported.cards.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "banks-shared-memory-has-32-banks-it-is-per-blo-c1",
                "banks-shared-memory-has-32-banks-it-is-per-blo-c2",
                "banks-only-one-cloze-and-no-back-c1"
            ]
        );
        let c1 = &imported.cards[0];
        assert_eq!(c1.front, "[…] has 32 banks; […] is per block");
        assert_eq!(
            c1.back,
            "Shared memory has 32 banks; it is per block\n\nSee the banks lesson."
        );
        let c2 = &imported.cards[1];
        assert_eq!(
            c2.front,
            "Shared memory has [how many?] banks; it is per block"
        );
        for card in &imported.cards {
            assert!(
                !card.front.contains("{{"),
                "no cloze markup shows: {}",
                card.front
            );
        }
        assert_eq!(imported.cards[2].back, "only one cloze and no back");
    }
}
