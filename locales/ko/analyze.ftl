# kernel 분석기: 내장 예제 목록과 분석한 kernel 하나.
analyze-examples-title = kernel 분석 — 내장 예제
analyze-examples-intro = 각 kernel은 GPU 없이 launch 전체, 모든 warp에 걸쳐 실행된다: 줄마다 sector와 bank conflict.
analyze-examples-launch = grid { $grid } block { $block }
# 하단 안내와 도움말: 키가 하는 일.
analyze-key-move = 이동
analyze-key-analyse = 분석
analyze-key-page = 페이지
analyze-key-line = 줄
analyze-key-explorer = explorer
analyze-key-iteration = 반복
analyze-key-warp = warp
analyze-key-block = block
analyze-key-next-prev = 다음/이전 access
analyze-key-access = 줄의 access
# 머리: kernel과 합계 (ld/st: load/store, req: request, sec: sector,
# wf: wavefront, confl: bank conflict).
analyze-kernel-title = kernel { $kernel } · grid { $grid } · block { $block } · { $file }
analyze-totals = 합계
analyze-if-merged = 합친다면
analyze-totals-global-load = global ld { $requests } req { $sectors } sec
analyze-totals-global-store = st { $requests } req { $sectors } sec
analyze-totals-shared-load = shared ld { $wavefronts } wf { $conflicts } confl
analyze-totals-shared-store = st { $wavefronts } wf { $conflicts } confl
analyze-totals-none = 실행되는 memory access 없음
# source와 heat 열.
analyze-source-title = Source · heat: 낭비된 sector + 추가 wavefront
# 선택한 줄의 access.
analyze-line-title = { $line }번째 줄 · { $text }
analyze-line = { $line }번째 줄
analyze-no-access = 이 줄에는 memory access가 없다 — n / N으로 다음이나 이전 access로 이동.
analyze-access-head = { $space } · lane당 { $bytes } B
analyze-access-of = 줄의 access { $count }개 중 { $n }번째 (Tab)
analyze-never-runs = 활성 lane과 함께 실행되는 일이 없음
analyze-as-written = 작성된 대로
analyze-merged-with-first = 그룹의 첫 access와 함께 셈
analyze-why = 왜: { $why }
analyze-where = block ({ $x },{ $y },{ $z }) / { $blocks } · warp { $warp } / { $warps }
analyze-warp-never-runs = { $place } · 이 warp는 이 access를 실행하지 않음 (w/b: 다른 warp)
analyze-run = { $place } · 실행 { $run } / { $total } · 활성 lane { $lanes }개
analyze-run-load = { $place } · 실행 { $run } / { $total } (load) · 활성 lane { $lanes }개
analyze-run-store = { $place } · 실행 { $run } / { $total } (store) · 활성 lane { $lanes }개
analyze-trace-error = { $place }: { $error }
# warp 다이어그램.
analyze-warp-diagram = Warp 다이어그램
analyze-warp-sectors = Warp → sector
analyze-move-to-access = 이 warp가 실행하는 access가 있는 줄로 이동하라.
