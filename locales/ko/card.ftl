# 카드 한 장 (src/ui/card.rs).
card-key-reveal = 뒤집기
card-key-topic = 주제
card-key-search = 검색
card-key-back = 뒤로
card-title = 카드 · { $topic }
card-show-answer = Space나 Enter를 누르면 답이 보입니다.
