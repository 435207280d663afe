//! Measuring and cutting text in terminal columns (a Hangul syllable takes two).

/// Terminal columns `text` takes (a Hangul syllable takes two), as ratatui draws it.
pub fn columns(text: &str) -> usize {
    ratatui::text::Span::raw(text).width()
}

/// `text` cut to `width` terminal columns, ending in `…` when it was longer, and never cutting a
/// double-width character in half.
pub fn cut(text: &str, width: usize) -> String {
    if columns(text) <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(1);
    let mut out = String::new();
    let mut used = 0;
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let w = columns(c.encode_utf8(&mut buf));
        if used + w > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if width > 0 {
        out.push('…');
    }
    out
}

/// [`cut`], then padded with spaces to exactly `width` columns.
pub fn fit(text: &str, width: usize) -> String {
    let mut out = cut(text, width);
    let used = columns(&out);
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(used)));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn korean_is_measured_in_columns_and_cut_between_characters() {
        assert_eq!(super::columns("공유 메모리"), 11);
        assert_eq!(super::cut("공유 메모리", 6), "공유 …");
        assert_eq!(super::cut("공유 메모리", 5), "공유…");
        assert_eq!(super::fit("공유", 6), "공유  ");
        assert_eq!(super::fit("Shared memory banks", 10), "Shared me…");
        assert_eq!(super::fit("banks", 7), "banks  ");
    }
}
