# Feedback on answers.
grade-too-long = yeh { $length } characters hai — yahan answer zyada se zyada { $limit } ka ho sakta hai
grade-type-number = ek number type karo
grade-right = Sahi — { $expected }.
grade-right-within = Sahi — { $expected } ({ $allowed } wale answers maane jaate hain).
grade-right-rounded = Sahi — { $expected } (aapne { $given } type kiya: ek number apne aakhri digit ke aadhe step tak upar ya neeche ki har value ke liye hota hai, isliye dono taraf round kiya answer chalta hai).
grade-wrong-number = Thoda galat: aapne { $given } likha; { $fixed ->
    [yes] answer hai
   *[no] in numbers ke liye answer hai
} { $expected }.
grade-close = Aap kareeb ho — rounding aur aakhri step check karo.
grade-close-within = Aap kareeb ho — { $allowed } wale answers maane jaate hain; rounding aur aakhri step check karo.
grade-unit-off = Aapka answer { $factor }× door hai — digits sahi, unit galat?
grade-factor-large = Aapka answer theek { $factor }× bada hai — { $factor } ka factor chhoot gaya ya do baar gina?
grade-factor-small = Aapka answer theek { $factor }× chhota hai — { $factor } ka factor chhoot gaya ya do baar gina?
grade-pick-one = { $letters } mein se ek chuno — uska letter ya uske words type karo
grade-or = { $first } ya { $second }
grade-wrong-choice = Thoda galat: aapne { $picked } chuna; { $fixed ->
    [yes] answer hai
   *[no] in numbers ke liye answer hai
} { $expected }.
grade-arrange = items ko order mein lagao
grade-all-items = saare { $n } items order mein lagao
grade-wrong-order = Thoda galat: position { $position } par { $right } aana chahiye, { $given } nahi. Order hai { $expected }.
grade-type-word = word ya phrase type karo
grade-wrong-text = Thoda galat: aapne “{ $typed }” likha; answer hai { $expected }.
grade-write-explanation = ek chhota explanation likho
grade-ideas-all = Har idea mila: { $found }.
grade-ideas-none = Model answer ka koi idea nahi mila. Missing: { $missed }.
grade-ideas-some = Mila: { $found }. Missing: { $missed }.
grade-compare-enough = Model answer se compare karo — { $summary } Mark karo ki aapko aata tha ya nahi.
grade-compare-none = Model answer se compare karo — { $summary } Model answer padho, phir apne shabdon mein dobara try karo.
grade-compare-some = Model answer se compare karo — { $summary } Mark karo ki aapko aata tha ya nahi; keywords sirf andaaza dete hain ki aapka matlab kya tha.
grade-within-points = ±{ $points } percentage point ke andar
grade-within = ±{ $limit } ke andar
grade-within-percent = { $percent } % ke andar
grade-name-all = saare { $n } items order mein likho, commas se alag karke (jaise { $example })
grade-twice = “{ $item }” do baar aaya hai
grade-not-an-item = “{ $item }” inme se koi nahi hai: { $items }
grade-empty = pehle answer type karo
grade-input-too-long = yeh { $length } characters hai — yahan answer ek number hai, zyada se zyada { $limit } characters
grade-not-a-number = `{ $text }` ko number ki tarah nahi padh paaye — { $example } jaisa kuch try karo
grade-too-large = `{ $text }` answer hone ke liye bahut bada hai
grade-wrong-unit = Number { $number } padh liya, par unit `{ $unit }` nahi — answer { $expected } mein do
grade-which-unit = { $number } kya? — kaunsi unit? Answer { $expected } mein do, jaise { $example }
grade-bits = `{ $unit }` bits hai (chhota b); yeh answer bytes mein hai — `B` likho (`2 KB`, `32 B`)
grade-two-answers = `{ $text }` do alag answers deta hai — ek hi type karo
grade-negated = `{ $text }` batata hai ki answer kya nahi hai — type karo ki answer kya hai
grade-unit-plain = ek simple number
grade-unit-percent = percent ya fraction
grade-unit-bytes = bytes (B, KB, KiB, MB)
grade-unit-seconds = time (s, ms, µs, ns)
grade-unit-cycles = cycles
grade-unit-flop-per-byte = FLOP per byte
grade-unit-flop-per-second = FLOP/s (GFLOP/s, TFLOP/s)
grade-unit-bytes-per-second = bytes per second (GB/s, TB/s)
grade-unit-factor = ek factor
grade-mistake = { $name }: { $feedback }
grade-wrong-number-held = Thoda galat: aapne { $given } likha.
grade-wrong-choice-held = Thoda galat: { $picked } sahi nahi hai.
grade-wrong-order-held = Thoda galat: { $given } position { $position } par nahi aata.
grade-wrong-text-held = Thoda galat: “{ $typed }” sahi nahi hai.
grade-explain-held = Thoda galat: aapke explanation mein model answer ka ek idea missing hai.
