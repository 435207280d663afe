//! Footer words in the learner's language. [`super::Component::keys`] hands out `&'static str`s, so
//! each translated word is kept once for the life of the program: a few dozen short texts at most,
//! however often the screens are drawn.

use crate::i18n::Lang;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};

/// The language a screen was last drawn in, kept beside its state: `keys()` gets no context, and
/// words the footer (drawn in the same frame, after the screen) in this language. English until
/// the first drawing.
#[derive(Debug, Default)]
pub struct DrawnIn(AtomicU8);

impl DrawnIn {
    /// Records the language of this drawing.
    pub fn set(&self, lang: Lang) {
        let index = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
        self.0.store(index as u8, Ordering::Relaxed);
    }

    /// The language of the last drawing.
    pub fn get(&self) -> Lang {
        Lang::ALL
            .get(usize::from(self.0.load(Ordering::Relaxed)))
            .copied()
            .unwrap_or_default()
    }
}

impl Clone for DrawnIn {
    fn clone(&self) -> Self {
        let copy = DrawnIn::default();
        copy.set(self.get());
        copy
    }
}

/// `text` as a `&'static str`, the same one each time the same text is asked for.
pub fn keep(text: String) -> &'static str {
    static KEPT: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut kept = KEPT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&word) = kept.get(text.as_str()) {
        return word;
    }
    let word: &'static str = Box::leak(text.into_boxed_str());
    kept.insert(word);
    word
}

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

    #[test]
    fn a_word_is_kept_once() {
        let a = super::keep("다시".to_string());
        let b = super::keep("다시".to_string());
        assert_eq!(a, "다시");
        assert!(std::ptr::eq(a, b));
    }
}
