# One flashcard (src/ui/card.rs).
card-key-reveal = reveal
card-key-topic = topic
card-key-search = search
card-key-back = back
card-title = Card · { $topic }
card-show-answer = Space or Enter shows the answer.
