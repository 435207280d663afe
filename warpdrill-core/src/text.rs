//! Text as a terminal and a spreadsheet see it: widths in terminal columns (a Hangul syllable takes
//! two; `unicode-width`), cutting and padding to a width, CSV and TSV rows (`csv`), and UTC times
//! (`chrono`). Every screen, report and export measures and quotes text through here.

use unicode_width::UnicodeWidthStr;

/// Terminal columns `text` takes: `columns("공유 메모리")` = 11.
pub fn columns(text: &str) -> usize {
    text.width()
}

/// The longest start of `text` that fits in `width` columns (a wide character is never cut in
/// half): `take_columns("공유", 3)` = `"공"`.
pub fn take_columns(text: &str, width: usize) -> &str {
    let mut used = 0;
    let mut buf = [0u8; 4];
    for (at, c) in text.char_indices() {
        used += columns(c.encode_utf8(&mut buf));
        if used > width {
            return &text[..at];
        }
    }
    text
}

/// `text` cut to `width` columns, ending in `…` when it was longer: `cut("공유 메모리", 6)` =
/// `"공유 …"`. Nothing at all fits in 0 columns.
pub fn cut(text: &str, width: usize) -> String {
    if columns(text) <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = take_columns(text, width - 1).to_string();
    out.push('…');
    out
}

/// [`cut`], then padded with spaces to exactly `width` columns.
pub fn fit(text: &str, width: usize) -> String {
    pad(&cut(text, width), width)
}

/// `text` followed by spaces up to `width` columns (`{:<width$}` for double-width text).
pub fn pad(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(columns(text))))
}

/// Spaces, then `text`, up to `width` columns (`{:>width$}` for double-width text).
pub fn pad_left(text: &str, width: usize) -> String {
    format!("{}{text}", " ".repeat(width.saturating_sub(columns(text))))
}

/// One delimited line, `\n`-terminated, quoted as RFC 4180 says (a field holding the delimiter, a
/// quote or a line break is put in quotes, its quotes doubled).
fn delimited_row<I, S>(fields: I, delimiter: u8) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<[u8]>,
{
    let mut writer = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_writer(Vec::new());
    // Writing to memory cannot fail; a field the writer refused would leave the row empty.
    let _ = writer.write_record(fields);
    let bytes = writer.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// One CSV line: `csv_row(["a", "b,c"])` = `a,"b,c"\n`.
pub fn csv_row<I, S>(fields: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<[u8]>,
{
    delimited_row(fields, b',')
}

/// One tab-separated line, quoted the same way (Anki's import reads it).
pub fn tsv_row<I, S>(fields: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<[u8]>,
{
    delimited_row(fields, b'\t')
}

/// One CSV field as it stands in a row (quoted only when it must be): `csv_field("a\"b")` =
/// `"a""b"`.
pub fn csv_field(field: &str) -> String {
    let row = csv_row([field]);
    row.strip_suffix('\n').unwrap_or(&row).to_string()
}

/// Unix seconds as `2026-11-30T10:15:00Z` (UTC).
pub fn iso_time(seconds: u64) -> String {
    i64::try_from(seconds)
        .ok()
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_else(|| format!("@{seconds}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn korean_is_measured_in_columns_and_cut_between_characters() {
        assert_eq!(columns("공유 메모리"), 11);
        assert_eq!(cut("공유 메모리", 6), "공유 …");
        assert_eq!(cut("공유 메모리", 5), "공유…");
        assert_eq!(cut("banks", 0), "");
        assert_eq!(fit("공유", 6), "공유  ");
        assert_eq!(fit("Shared memory banks", 10), "Shared me…");
        assert_eq!(fit("banks", 7), "banks  ");
        assert_eq!(pad_left("뱅크", 5), " 뱅크");
        assert_eq!(take_columns("공유", 3), "공");
    }

    #[test]
    fn rows_are_quoted_only_where_they_must_be() {
        assert_eq!(
            csv_row(["a", "b,c", "say \"hi\""]),
            "a,\"b,c\",\"say \"\"hi\"\"\"\n"
        );
        assert_eq!(csv_row(["two\nlines"]), "\"two\nlines\"\n");
        assert_eq!(tsv_row(["a,b", "c\td"]), "a,b\t\"c\td\"\n");
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a\"b"), "\"a\"\"b\"");
    }

    #[test]
    fn times_print_in_utc() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_time(1_796_033_700), "2026-11-30T10:15:00Z");
        assert_eq!(iso_time(951_782_400), "2000-02-29T00:00:00Z");
    }
}
