//! Footer words in the learner's language. [`super::Component::keys`] hands out `&'static str`s, so
//! each translated word is kept once for the life of the program: a few dozen short texts at most,
//! however often the screens are drawn.

use crate::i18n::Lang;
pub use crate::text::{columns, cut, fit};
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_word_is_kept_once() {
        let a = super::keep("다시".to_string());
        let b = super::keep("다시".to_string());
        assert_eq!(a, "다시");
        assert!(std::ptr::eq(a, b));
    }
}
