# explorer: 파라미터, preset, 다이어그램, 숫자, sweep 패널.
explorer-key-stride = stride ±
explorer-key-offset = offset ±
explorer-key-elem = elem
explorer-key-space = global/shared
explorer-key-arch = arch
explorer-key-presets = preset
explorer-key-sweep = sweep
explorer-key-field = 항목, 값
explorer-key-type = 값 입력
explorer-key-back = 뒤로
explorer-parameters = 파라미터
explorer-parameters-compact = 파라미터 (↑↓ 선택)
explorer-warp-sectors = Warp → sector
explorer-warp-lines = Warp → line
explorer-numbers = 숫자
explorer-numbers-preset = 숫자 · preset: { $name }
explorer-sectors = sector { $n }
explorer-requests = request { $n }
explorer-efficiency = 효율 { $percent }
explorer-lines = line { $n }
explorer-bytes = 요청 { $requested } byte / 가져옴 { $fetched } byte (낭비 { $wasted })
explorer-why = 왜: { $why }
explorer-wavefronts = { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} { $n }
explorer-ideal = 이상적 { $n }
explorer-conflict-degree = conflict { $degree }-way
explorer-bank-conflicts = bank conflict { $n }
explorer-diagram = 다이어그램
explorer-cannot-draw = 이 입력으로는 그릴 수 없다:
# 파라미터 행: 라벨 (짧게: 패널 안쪽은 24칸) 과 값.
explorer-row-arch = arch
explorer-row-space = 메모리
explorer-row-elem = elem
explorer-row-pattern = 패턴
explorer-row-stride = stride
explorer-row-first = 시작
explorer-row-column = column
explorer-row-offset = offset
explorer-row-struct = struct
explorer-row-field = field 위치
explorer-row-pitch = pitch
explorer-row-base = base
explorer-row-offsets = offsets
explorer-row-lanes = lanes
explorer-row-count = 단위
explorer-row-sweep = sweep
explorer-row-range = 범위
explorer-row-figure = 지표
explorer-value-bytes = { $n } B
explorer-value-elems = { $n } elem
explorer-space-global = global
explorer-space-shared = shared
explorer-shape-affine = affine
explorer-shape-struct = AoS field
explorer-shape-row = 2D 행 순회
explorer-shape-column = 2D 열 순회
explorer-shape-offsets = 직접 지정
explorer-lanes-all = 전체 ({ $count })
explorer-lanes-half = 앞 절반 ({ $count })
explorer-lanes-odd = 홀수 ({ $count })
explorer-lanes-first = 앞 { $count }개
explorer-unit-lines = 128 B line
explorer-unit-sectors = 32 B sector
explorer-error-space = `{ $text }`: global 또는 shared를 입력하세요
explorer-error-elem = element 크기는 1, 2, 4, 8, 16 byte 중 하나여야 합니다 (입력: { $elem })
explorer-error-shape = `{ $text }`: affine, aos, row, column 중 하나를 입력하세요
explorer-error-struct = struct는 { $elem }-byte field를 담을 수 있어야 합니다
explorer-error-field = field offset은 0부터 { $max }까지입니다
explorer-error-offsets = byte offset을 1개에서 { $warp }개까지 쉼표로 구분해 lane 0부터 입력하세요
explorer-error-lanes = 활성 lane이 적어도 하나 있어야 합니다
# global 다이어그램.
explorer-lane = lane
explorer-more-sectors = … sector { $n }개 더 있음 (창을 키우세요)
explorer-more-lines = … line { $n }개 더 있음 (창을 키우세요)
# bank 다이어그램.
explorer-banks-title = Lane → bank 32개
explorer-share-word = lane { $lanes }: word { $word } 공유
explorer-broadcast = broadcast: { $words }
explorer-serialized = 직렬화: bank { $bank }에서 word { $words }개를 차례로 — lane { $lanes }
explorer-banks-legend = ● word · ◆ 공유 (broadcast) · ✗ { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} 대기
explorer-banks-legend-digits = lane 번호는 위에서 아래로 읽습니다 (십의 자리 아래 일의 자리) · 밑줄: 공유 (broadcast) · ✗ { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} 대기
explorer-phase = phase lane { $first }-{ $last } → { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} { $n }개
explorer-phase-merged = phase lane { $first }-{ $last } → { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} { $n }개 (쌍 합침)
explorer-more-rows = … { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} 행 { $n }개 더
# preset.
explorer-presets-title = Preset (Enter 적용, Esc 닫기)
explorer-preset-sequential = 연속된 float
explorer-preset-sequential-what = stride 1: sector 4개, 100 %
explorer-preset-stride2 = stride 2
explorer-preset-stride2-what = sector마다 절반 낭비
explorer-preset-stride32 = stride 32
explorer-preset-stride32-what = lane마다 sector 하나, 12.5 %
explorer-preset-stride1024 = stride 1024
explorer-preset-stride1024-what = lane 간격 4 KB: 빈 구간
explorer-preset-misaligned = 한 칸 어긋난 정렬
explorer-preset-misaligned-what = sector 4개가 아니라 5개
explorer-preset-aos12 = AoS, 12-byte struct
explorer-preset-aos12-what = float3 field: sector 12개
explorer-preset-aos24 = AoS, 24-byte struct
explorer-preset-aos24-what = 유효 128 byte에 sector 24개
explorer-preset-soa = SoA
explorer-preset-soa-what = field마다 배열 하나: sector 4개
explorer-preset-column = column 순회, pitch 4096
explorer-preset-column-what = row-major 행렬을 열 방향으로
explorer-preset-half-warp = 절반 warp
explorer-preset-half-warp-what = lane 16-31 비활성: sector 2개
explorer-preset-transpose = 전치 column, tile[32][32]
explorer-preset-transpose-what = shared: 32-way conflict
explorer-preset-padded = padding 한 tile[32][33]
explorer-preset-padded-what = shared: conflict 없음
explorer-preset-shared-stride2 = shared stride 2
explorer-preset-shared-stride2-what = 2-way conflict
explorer-preset-broadcast = broadcast
explorer-preset-broadcast-what = 모든 lane, word 하나: wavefront 1개
explorer-preset-doubles = 8-byte double
explorer-preset-doubles-what = shared: half-warp phase 2개
explorer-preset-double-tile = double tile[32][32] column
explorer-preset-double-tile-what = shared: wavefront 32개; [32][33] → 2
explorer-preset-amd-contiguous = AMD wave64 연속
explorer-preset-amd-contiguous-what = gfx942: lane 64개, line 2개
explorer-preset-amd-stride64 = AMD wave64 stride 64
explorer-preset-amd-stride64-what = gfx942: transaction 64개
# sweep 패널.
explorer-figure-sectors = sector/request
explorer-figure-lines = line/request
explorer-figure-efficiency = 효율 %
explorer-figure-wavefronts = { $vendor ->
    [amd] LDS pass
   *[other] wavefront
}
explorer-error-sweep-param = `{ $text }`: stride, offset, elem, struct_size, lanes, pitch 중 하나를 입력하세요
explorer-error-sweep-applies = { $param }: 이 패턴에는 쓸 수 없습니다
explorer-error-sweep-points = 패널은 점을 최대 { $max }개까지 그립니다; step을 쓰거나 (`0..65536:16`) `warpdrill calc sweep`을 쓰세요
explorer-error-figure-global = sectors 또는 efficiency를 입력하세요
explorer-error-figure-shared = shared memory는 wavefront를 그립니다
explorer-sweep-now = { " · " }현재 { $x } → { $y }
explorer-sweep-title = Sweep: { $figure } 대 { $param }{ $now }
explorer-sweep-title-long = Sweep: { $param }에 따른 { $figure }{ $now }
explorer-sweep-model = 모델
explorer-sweep-model-long = 모델: { $figure }
explorer-sweep-measured = • H200, { $param } { $at }에서 맞춤
explorer-sweep-measured-long = • H200 { $unit }, { $param } { $at }에서 모델에 맞춤
explorer-measured-time-per-byte = 쓸모 있는 byte당 시간 (1 / useful GB/s)
explorer-measured-bandwidth = useful GB/s
explorer-measured-cycles = load당 cycle
explorer-sweep-measured-sm90-only = H200 측정값은 sm_90에서만 표시됨 (a: arch)
explorer-sweep-now-point = 현재
explorer-key-op = ld/st
explorer-op-load = load
explorer-op-store = store
explorer-preset-store-broadcast = 8-byte store, 주소 하나
explorer-preset-store-broadcast-what = store: wavefront 2개 (load는 1개)
explorer-preset-store-column = store tile[32][32] column
explorer-preset-store-column-what = transpose 쓰기: wavefront 32개
