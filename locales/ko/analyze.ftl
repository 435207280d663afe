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
analyze-key-time = 시간
analyze-time-title = 예상 시간: 항목별, 큰 것부터
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
analyze-totals-atomics = 원자 연산 { $n }개는 따로 셈 (이 수치에 없음)
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
# access의 비용이 그만큼인 이유 ($sectors, $used, $ways: 이미 적어 둔 수치).
analyze-why-coalesced = request당 sector { $sectors }개, 가져온 byte의 { $used }%를 씀: coalescing됨
analyze-why-scattered = request당 sector { $sectors }개 (warp 전체에 필요한 것은 { $ideal }개): 가져온 byte의 { $used }%만 씀 — 이웃한 lane들이 이웃한 주소를 { $op ->
    [store] 쓰지 않는다
    [both] 읽고 쓰지 않는다
   *[load] 읽지 않는다
}
analyze-why-no-conflicts = bank conflict 없음: phase마다 wavefront 하나
analyze-why-conflicts = 평균 { $ways }-way bank conflict: 한 phase의 lane들이 같은 bank의 서로 다른 word를 건드린다
# "합친다면" 수치가 가정하는 병합 ($members: 역따옴표 안의 access; $op: LDG/STG.64 등).
analyze-merge-group = compiler가 thread마다 { $bytes }-byte access 하나({ $op })로 합친다고 가정: { $members }
analyze-merge-unrolled = compiler가 loop를 unroll하고 이웃한 iteration을 { $bytes }-byte access({ $op })로 합친다고 가정: { $access }
analyze-merge-and = { $first }, { $last }
analyze-merge-list-separator = {", "}
# 텍스트 보고서 (`warpdrill analyze … --text`).
analyze-text-head = kernel { $kernel }  grid { $grid }  block { $block }
analyze-text-line = 줄
analyze-text-figures = instruction · request/sector · wavefront
analyze-text-source = 소스
analyze-text-merged = 합친다면: { $figures }
analyze-text-merged-none = 합친다면: 없음 (그룹의 첫 access에서 셈)
analyze-text-totals = 합계
analyze-text-merged-totals = compiler가 한 thread의 이웃한 access를 합칠 때의 합계 (그러면 hardware는 넓어진 access를 센다)
analyze-text-global-loads = global load
analyze-text-global-stores = global store
analyze-text-shared-loads = shared load
analyze-text-shared-stores = shared store
analyze-text-divergence = divergence
analyze-text-divergence-figures = warp instruction { $all }개 중 { $partial }개가 쉬는 thread가 있는 채로 issue됨 ({ $percent } %); instruction당 평균 active thread { $threads }개
analyze-text-divergent-line = { $line }행: { $all }개 중 { $partial }개가 쉬는 thread와 함께
analyze-text-global-figures = request { $requests }개, sector { $sectors }개 (request당 { $per }개)
analyze-text-shared-figures = instruction { $instructions }개, wavefront { $wavefronts }개, bank conflict { $conflicts }개
analyze-text-no-waste = 낭비된 sector도 bank conflict도 없음
analyze-text-costliest = 비용이 가장 큰 access
analyze-text-wasted-sectors = 낭비된 sector { $n }개
analyze-text-extra-wavefronts = 추가 wavefront { $n }개

## An analysis running in the background
analyze-pending-title = { $file } 분석 중
analyze-pending = 분석하는 중… (Esc로 취소)
analyze-pending-time = 지금까지 { $seconds }초 — 시뮬레이션은 예산을 다 쓰면 스스로 멈춥니다.
analyze-key-cancel = 취소
analyze-cannot = 분석할 수 없는 파일 { $file }: { $message }
analyze-text-reused = load 없음: { $from }행의 값을 재사용
analyze-text-forwarded = load 없음: { $from }행의 store 값을 전달
analyze-text-assumed = 가정 (--assume): 이 수치는 다음 데이터에서만 성립:
analyze-assume-uniform = [{ $lo }, { $hi }) 구간의 균등 분포 값
analyze-assume-constant = 모든 element가 { $value }
analyze-assume-file = { $file }의 { $n ->
        [one] 값
       *[other] 값 { $n }개
    }, 반복
analyze-heat-reused = 재사용
analyze-totals-assumed = 가정한 데이터 (--assume): { $arrays }
analyze-totals-divergence = divergent { $percent } %
analyze-line-divergence = divergence: 이 줄의 warp instruction { $all }개 중 { $partial }개가 쉬는 thread와 함께 issue됨
analyze-text-as-written = 작성한 그대로: { $figures }
analyze-text-written-totals = 작성한 그대로, nvcc가 하는 병합 없이 (정렬을 아는 shared access: 한 문장의 이웃, 펼친 loop의 단계):
analyze-compiled = nvcc 병합

## Atomics, as Nsight Compute counts them
analyze-text-atomics = 원자 연산 (Nsight Compute는 load·store와 따로 op_atom, op_red, shared op_atom으로 셈):
analyze-text-atomic-global = { $instruction } · request { $requests }개 · sector { $sectors }개 (request당 { $per }) · { $form }
analyze-text-atomic-shared = ATOMS · instruction { $instructions }개 · wavefront { $wavefronts }개 (instruction당 { $per }) · { $form }
analyze-text-atomic-uncounted = 실행 { $n }번은 세지 않음: 주소가 데이터에 달려 있음 (--assume을 주세요)
analyze-text-atomic-retried = 실행 { $n }번은 세지 않음: 한 주소의 lane들이 타이밍에 따라 compare-and-swap loop를 되풀이함
analyze-text-atomic-unfollowed = 세지 않음: 대상이 분석기가 따라가는 배열의 원소가 아님
analyze-text-atomic-totals = 원자 연산: ATOMG request { $atom_requests }개, sector { $atom_sectors }개 · REDG request { $red_requests }개, sector { $red_sectors }개 · ATOMS instruction { $shared_instructions }개, wavefront { $shared_wavefronts }개
analyze-atomic-form-combined = warp당 lane 하나 (모든 thread의 주소가 같아 nvcc가 lane을 합침)
analyze-atomic-form-increment = 한 주소의 lane들은 한 번으로 셈 (ATOMS.POPC.INC)
analyze-atomic-form-swap-loop = load 하나, 그다음 compare-and-swap loop (sm_90에는 shared float add가 없음); load는 shared load에 들어감
analyze-atomic-form-rounds = 한 주소의 lane들은 차례로 처리됨
analyze-totals-atomics-global = 원자 연산 request { $requests } / sector { $sectors }
analyze-totals-atomics-shared = shared 원자 연산 instruction { $instructions } / wavefront { $wavefronts }
