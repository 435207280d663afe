# Ek flashcard (src/ui/card.rs).
card-key-reveal = palto
card-key-topic = topic
card-key-search = search
card-key-back = wapas
card-title = Card · { $topic }
card-show-answer = Answer dekhne ke liye Space ya Enter dabao.
