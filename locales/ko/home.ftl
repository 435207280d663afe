# Home.
home-key-language = 언어
home-tagline = GPU memory 성능, 눈으로 보고 계산으로 확인한다.
home-resume = 이어서: { $title } ({ $level })
home-ladder = Ladder — 문제 L1부터 L5까지
home-review = 복습 ({ $due }개 예정) — 플래시카드, 간격 반복
home-stats = 통계 — 기억 유지율, 예측, heatmap
home-explorer = Explorer — warp → sector, lane → bank, 실시간
home-calculators = 계산기 — occupancy, tiling, roofline
home-analyse = kernel 분석 — 줄별 sector와 bank conflict
home-search = 검색 — 문제, 카드, 주제
home-language = 언어: { $name }
home-locked = 잠김
home-counts = 문제 { $exercises }개 · 카드 { $cards }개 · 주제 { $topics }개
home-start-title = 시작하기
home-start-exercise = Ladder를 열고 L1부터 시작한다. 문제에서는 답을 입력하고 Enter를 누른다. Ctrl-T는 힌트, Ctrl-R은 새 숫자, Ctrl-E는 풀이 설명이다.
home-start-keys = 어디서나 /는 검색, ?는 그 화면의 키 안내다.
