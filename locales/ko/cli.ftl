# 명령줄의 문장들: calc, check, content check/preview, lab key/start, stats.
# 숫자는 인자로 들어온다 (이미 형식을 갖춘 문자열, 또는 수를 세는 말이 필요한 곳에서는 숫자).

## 공통
cli-error = 오류: { $message }
cli-warning = 경고: { $message }
cli-why = 이유: { $why }
cli-none = 없음
cli-count-lanes = lane { $n }개
cli-count-transactions = transaction { $n }개
cli-count-blocks = block { $n }개

## calc: 접근을 말로
cli-access = { $who } × { $elem } B, { $how }
cli-access-some-lanes = lane { $total }개 중 { $active }개 (mask { $mask })
cli-access-affine = stride { $stride }, offset { $offset }
cli-access-affine-base = stride { $stride }, offset { $offset }, base { $base } B
cli-access-struct = { $size }-byte struct의 byte { $field }에 있는 field (AoS)
cli-access-row-walk = 행 방향 접근, pitch { $pitch } B
cli-access-column-walk = 열 방향 접근, pitch { $pitch } B
cli-access-explicit = lane별로 지정한 offset

## calc coalescing
cli-coalescing-title = { $arch }의 global load: { $access }
cli-coalescing-counts = sector { $sectors }개 · line { $lines }개 · request { $requests }개 · { $transactions } ({ $unit } B)
cli-coalescing-bytes = 요청한 바이트 { $requested } / 가져온 바이트 { $fetched } · 효율 { $efficiency } · 낭비 { $waste }

## calc banks
cli-banks-title = { $arch }의 shared memory load: { $access }
cli-banks-counts = { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} { $wavefronts }개 · 이상적으로는 { $ideal }개 · conflict 차수 { $degree }-way · bank conflict { $conflicts }번
cli-banks-granularity = --granularity는 `calc coalescing`에만 쓸 수 있다

## calc occupancy
cli-waves-title = { $arch }의 wave: lane당 VGPR { $vgprs }개 (할당 { $allocated }개)
cli-waves-counts = SIMD당 wave { $waves } / { $max } · CU당 wave { $cu } · occupancy { $occupancy }
cli-occupancy-title = { $arch }의 occupancy: block당 thread { $threads }개, thread당 register { $regs }개, block당 shared memory { $smem }, carveout { $carveout }
cli-occupancy-carveout-default = 기본값
cli-occupancy-counts = SM당 활성 block { $blocks }개 · 활성 warp { $warps } / { $max } · occupancy { $occupancy }
cli-occupancy-limited-by = 제한 요인: { $limiters }
cli-occupancy-limits = 각 한도가 허용하는 SM당 block 수:
cli-occupancy-limiter-mark = ← 제한 요인
cli-occupancy-barriers = barrier
cli-occupancy-barriers-note = (9.0+: block당 barrier 하나로는 제한이 되지 않음)
cli-occupancy-allocated = block당 할당: register { $regs }개 (warp당 { $per_warp }개 × warp { $warps }개), shared memory { $smem } (예약분 포함); SM carveout { $carveout }
cli-occupancy-textbook = 교과서식 한계 (floor(65536 / r)개 thread, 할당 단위 무시): thread { $threads }개 → warp 단위로 내림하면 { $rounded }개 = { $occupancy }
cli-occupancy-hardware = 하드웨어 (SM이 실제로 돌리는 양): { $occupancy }
cli-limiter-warps = warp
cli-limiter-registers = register
cli-limiter-shared-memory = shared memory
cli-limiter-blocks = block

## calc tiling
cli-tiling-title = tiled 행렬 곱: N = { $n }, tile { $tile }×{ $tile }, { $elem }-byte 원소, { $arch }
cli-tiling-reads = global 읽기 naive { $naive } · tiled { $tiled } · 감소 배율 { $factor }×
cli-tiling-smem = block당 shared memory { $smem } (tile 2개 × { $tile }² × { $elem } B)
cli-tiling-smem-blocks = shared memory만으로 본 SM당 block 수: { $blocks }
cli-tiling-occupancy = 전체 occupancy 규칙 (block당 thread { $threads }개, register { $regs }개): { $blocks }, { $occupancy } (제한 요인: { $limiters })
cli-tiling-too-big = { $tile }×{ $tile } block은 thread 1024개를 넘는다: occupancy 없음
cli-tiling-intensity = arithmetic intensity { $naive } → { $tiled } FLOP/B (재사용이 intensity를 tile 크기만큼 곱한다)

## calc roofline
cli-roofline-title = roofline: 최대 연산 성능 { $peak }FLOP/s, bandwidth { $bandwidth }B/s, intensity { $intensity } FLOP/B
cli-roofline-point = ridge { $ridge } FLOP/B · 도달 가능 { $attainable }FLOP/s (최대의 { $fraction }) · { $bound }
cli-bound-memory = memory-bound (메모리가 한계)
cli-bound-compute = compute-bound (연산이 한계)

## content check / preview, check
cli-unknown-level = 알 수 없는 level `{ $level }` (L1 … L5 중 하나)
cli-content-problems = content 문제 { $n }개 — 해당 항목은 건너뛰었다 (`warpdrill content check` 참고):
cli-content-ok = 정상
cli-content-problems-found = 문제 발견
cli-content-summary = { $status }: 파일 { $files }개, topic { $topics }개, card { $cards }개, 연습문제 { $exercises }개 ({ $levels }), 레슨 { $lessons }개; 문제 { $problems }개, 경고 { $warnings }개
cli-content-coverage = { $lang } { $status }: topic { $topics }, card { $cards }, 연습문제 { $exercises }, 레슨 { $lessons }; 전체 { $overall }; 문제 { $problems }개
cli-content-kind-topic = topic
cli-content-kind-card = card
cli-content-kind-exercise = 연습문제
cli-content-kind-lesson = 레슨
cli-content-untranslated = { $lang }: { $what } `{ $id }` 번역 없음
cli-content-in-english = { $lang }: { $what } `{ $id }` 영어로 남은 부분: { $fields }
cli-preview-items = 항목: { $items }
cli-preview-part = { $n }번째 부분: { $prompt } — 정답: { $answer }
cli-preview-answer = 정답: { $answer }
cli-preview-cannot-generate = 만들 수 없음: { $error }
cli-check-list-hint = `warpdrill content preview`로 목록을 볼 수 있다
cli-check-did-you-mean = 혹시 { $names }?
cli-check-no-exercise = 연습문제 `{ $id }`가 없다 — { $hint }
cli-check-cannot-generate = 연습문제 `{ $id }`를 만들 수 없다: { $error }
cli-check-part-range = 연습문제 `{ $id }`의 정확한 답을 요구하는 부분은 { $parts }개: --part는 1부터 { $parts }까지
cli-check-ideas-found = 찾은 아이디어: { $ideas }
cli-check-ideas-missed = 빠진 아이디어: { $ideas }
cli-check-model = 모범 답안: { $model }
cli-check-why = 이유: { $why }

## lab key, lab start
cli-lab-step = { $step }단계 · { $exercise } · seed { $seed }
cli-lab-answer = 정답: { $answer }   (인정되는 답: { $accepted })
cli-lab-md-step = 단계
cli-lab-md-exercise = 연습문제
cli-lab-md-seed = seed
cli-lab-md-prompt = 문제
cli-lab-md-answer = 정답
cli-lab-need-student = --student ID 또는 --roster FILE을 지정하라
cli-lab-saved = 답은 { $path }에 저장되어 있다.
cli-lab-receipt = 제출 완료. 영수증: { $receipt }

## stats
cli-stats-title = { $today } 복습 (하루는 { $hour }:00에 시작) · 기록 { $log }
cli-stats-today = 오늘
cli-stats-today-line = { $rated }개 평가 · { $due }개 예정 · 지금 남은 것: 신규 { $new }개, 학습 중 { $learning }개, 복습 { $review }개
cli-stats-cards = card
cli-stats-cards-line = 신규 { $new } · 학습 중 { $learning } · 복습 { $review } · 재학습 { $relearning } · 보류 { $suspended }
cli-stats-retention = 기억률
cli-stats-retention-line = 최근 30일 { $last30 } (young { $young_n }개 중 { $young }, mature { $mature_n }개 중 { $mature }) · 목표 { $desired }
cli-stats-forecast = 예보
cli-stats-forecast-line = { $bars } (앞으로 30일 동안 { $due }개 예정)
cli-stats-streak = 연속
cli-stats-streak-line = { $days }일 연속 · 지금까지 평가 { $total }번
cli-stats-mastery = 숙달도 (지금 기억해 낼 평균 확률):
cli-stats-studied = { $cards }개 중 { $studied }개 학습
cli-stats-topic-aim = 목표 { $percent }
cli-stats-weeks = 최근 { $weeks }주 ({ $first }부터, 한 주에 한 열):
cli-day-mon = 월
cli-day-tue = 화
cli-day-wed = 수
cli-day-thu = 목
cli-day-fri = 금
cli-day-sat = 토
cli-day-sun = 일
cli-coalescing-title-store = { $arch }의 global store: { $access }
cli-banks-title-store = { $arch }의 shared memory store: { $access }
cli-occupancy-cannot-launch = { $arch }에서 launch할 수 없다: { $reason } — SM에 block이 하나도 들어가지 않으므로 occupancy 0 %가 아니라 launch가 실패한다
cli-occupancy-no-regs-block = block 하나에 register { $regs }개가 필요하다(warp 단위로 할당, warp 수는 4의 배수로 올림). SM의 { $max }개보다 많다
cli-occupancy-no-smem = block 하나에 shared memory { $smem }가 필요하다(예약분 포함). block이 opt-in으로 쓸 수 있는 { $max }보다 많다
cli-occupancy-no-regs-warps = warp당 register { $per_warp }개로는 SM에 warp가 { $held }개만 들어간다(register sub-partition 4개). block의 warp { $warps }개보다 적다
cli-content-shares = seed { $seeds }개에서 answer 비율 (템플릿마다 가장 흔한 답; { $limit }를 넘으면 경고, 고정된 사실은 제외):
cli-content-share-warning = 경고
cli-content-share-fixed = 고정된 사실
cli-stats-calibration = 보정
cli-stats-calibration-fixed = 고정 카드
cli-stats-calibration-drill = 드릴 카드
cli-stats-calibration-line = { $kind }: 복습 { $n }회 · 예측 기억률 { $predicted } · 실제 { $actual } · 로그 손실 { $log_loss } · RMSE { $rmse }
cli-stats-calibration-none = { $kind }: 하루 이상 간격의 복습이 아직 없음
cli-stats-calibration-bin = 예측 { $from }–{ $to }%: 평균 { $predicted } · 실제 기억 { $actual } ({ $n }회)
cli-content-puzzles = 커널 퍼즐: { $puzzles }개 검사 (각 참조 풀이가 자기 퍼즐을 풀고 목표를 달성함).
