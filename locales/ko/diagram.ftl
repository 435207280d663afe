# 접근 다이어그램의 라벨과 범례 (explorer, `warpdrill calc`).
diagram-address = 주소
diagram-bytes-used = bytes (█ 사용)
diagram-lanes = lanes
diagram-used = 사용
diagram-sectors = sector { $n }개
diagram-lines = line { $n }개
diagram-wavefronts = { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} { $n }개
diagram-gap = { $bytes } 빈 구간 ({ $units } 안 가져옴)
diagram-phase = phase: lane { $first }-{ $last } → { $wavefronts }
diagram-banks-legend = (칸 = word를 읽는 lane; + = 여러 lane이 그 word를 공유; 행 = { $vendor ->
    [amd] LDS pass
   *[other] wavefront
})
