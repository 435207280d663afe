# 엔진 결과를 한 줄로 설명하는 "왜" 문장 (explorer, `warpdrill calc`).
explain-units = { $unit } { $n }개
explain-distinct-units = 서로 다른 { $unit } { $n }개
explain-useful-elements = 쓸모 있는 element { $count }개
explain-wavefronts = { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} { $n }개
explain-one-lane = 활성 lane 하나가 { $elem }-byte element 하나를 읽는다: 그것 때문에 { $size }-byte { $unit } 하나를 통째로 가져온다
explain-stride-zero = stride 0: 모든 lane이 같은 { $elem }-byte element를 읽으므로 { $unit } 하나가 warp 전체를 처리한다 (broadcast)
explain-coalesced = lane들이 이웃한 { $elem }-byte element를 읽는다: 쓸모 있는 { $requested } byte가 { $units }를 정확히 채운다 — 완벽한 coalescing
explain-broadcast = 모든 lane이 같은 { $elem }-byte element를 읽으므로 { $unit } 하나가 warp 전체를 처리한다 (broadcast)
explain-holes = lane { $warp }개 중 { $active }개만 활성이고 서로 이웃하지 않는다: 그 사이 byte는 가져오지만 쓰이지 않는다 ({ $fetched } B 중 { $used } B)
explain-far-apart = lane들이 { $gap } B씩 떨어져 있어서 (≥ { $size } B) 활성 lane마다 { $unit } 하나씩 따로 필요하다: { $units }가 쓸모 있는 { $requested } byte를 위해 { $fetched } B를 가져온다
explain-straddles = 연속이지만 구간이 { $size }-byte 경계에서 시작하지 않는다: { $minimum }개가 아니라 { $units }에 걸친다
explain-contiguous = 연속: 쓸모 있는 { $requested } byte에는 최소 { $units }가 필요하고 lane들은 그 이상 건드리지 않는다; 마지막 것은 일부만 쓰인다 (가져온 { $fetched } byte 중 { $used } byte 사용)
explain-gap = lane들이 { $gap } B씩 떨어져 있다: { $size }-byte { $unit } 하나에 { $elements }만 들어가서, 가져온 { $size } byte마다 { $useful } byte만 쓰인다
explain-explicit = 활성 lane들이 { $units }를 건드린다: 가져온 { $fetched } byte 중 { $used } byte가 쓰인다
explain-phases = { $elem }-byte load는 lane { $lanes }개씩 { $phases }개 phase로 처리된다
explain-phases-plain = { $phases };{ " " }
explain-phases-merged = { $phases } (lane 쌍이 주소를 공유해서 phase가 합쳐진다);{ " " }
explain-banks-broadcast = 같은 word를 읽는 lane들은 그 word를 공유하고 (broadcast), 어떤 bank도 서로 다른 두 word를 내주지 않는다
explain-banks-distinct = 모든 bank가 phase마다 서로 다른 word를 많아야 하나만 내준다
explain-no-conflict = { $phases }{ $why } → conflict 없음, { $wavefronts }
explain-stride-gcd = stride { $stride } word: gcd({ $stride }, 32) = { $degree }이므로 쓰이는 bank마다 서로 다른 word { $degree }개를 내준다 → { $degree }-way conflict
explain-worst-bank = { $phases }bank { $bank }에서 서로 다른 word { $words }개를 하나씩 차례로 내줘야 한다 → { $vendor ->
    [amd] LDS pass
   *[other] wavefront
} { $ideal }개가 아니라 { $wavefronts }개 ({ $degree }-way)
explain-phases-store = { $elem }-byte store는 lane { $lanes }개씩 { $phases }개 phase로 처리된다
explain-phases-store-plain = { $phases } (store는 phase를 합치지 않는다);{ " " }
