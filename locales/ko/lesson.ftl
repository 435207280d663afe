# 레슨: 목록(홈 → 배우기)과 레슨의 각 페이지.
lesson-list-title = 배우기
lesson-list-intro = topic마다 레슨이 하나씩 있다: 핵심 개념, 살아 움직이는 다이어그램 위의 풀이 예제, 직접 마무리하는 한 단계, 그다음 그 topic의 연습문제.
lesson-list-none = 불러온 레슨이 없다.
lesson-read = 다 읽음
lesson-new = { $pages }페이지
lesson-at-page = { $pages }페이지 중 { $page }페이지
lesson-title = 레슨 · { $title }
lesson-page-of = { $page }/{ $pages }
lesson-key-next = 다음 페이지
lesson-key-previous = 이전 페이지
lesson-key-change = 바꾸기
lesson-key-control = 다른 설정
lesson-key-practise = 연습하기
lesson-practise-exercise = { $key } 키를 누르면 연습으로 넘어간다: { $level } · { $title }
lesson-practise-ladder = { $key } 키를 누르면 사다리가 열린다.
lesson-offer = 레슨 먼저: { $topic } (L 키)
home-learn = 배우기: 살아 움직이는 다이어그램과 함께하는 레슨
