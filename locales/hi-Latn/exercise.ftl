# The exercise screen.
exercise-key-submit = submit
exercise-key-new-numbers = naye numbers
exercise-key-explain = explain
exercise-key-had-it = mujhe aata tha
exercise-key-missed-it = chhoot gaya
exercise-key-next = agla
exercise-key-move-item = item khiskao
exercise-key-choose = chuno
exercise-key-show-me = show me
exercise-key-simply = aasaan
exercise-key-next-previous = agla/pichhla
exercise-key-past-answers = purane answers
exercise-fixed-fact = Yeh sawaal ek fixed fact hai: isme badalne ke liye koi numbers nahi hain. { $key } se agli exercise par jao.
exercise-show-me-later = Show me pehle answer ke baad khulta hai: in numbers par woh answer hi dikha deta. Ek try karo (guess bhi chalega), ya hint lo.
exercise-cannot-mark-had = Aapke answer mein model answer ka koi idea nahi mila, isliye "aata tha" mark nahi ho sakta: n dabao, phir apne shabdon mein dobara try karo.
exercise-status-solved = solved
exercise-status-seen = dekha
exercise-status-attempted = try kiya
exercise-status-new = naya
exercise-broken = Yeh exercise dikhayi nahi ja sakti.
exercise-broken-check = Template ki galti dhoondhne ke liye `warpdrill content check` chalao.
exercise-part = part { $n }
exercise-part-exact = Part { $n } / { $total } (exact): { $prompt }
exercise-part-explain = Part { $total } / { $total }: explanation, apne shabdon mein.
exercise-arrange = Order mein lagao ({ $by }): J/K ya Shift+↑↓ highlighted item ko khiskata hai.
exercise-arrange-default = pehle se aakhri tak
exercise-hint = Hint { $n }:
exercise-hints-available = { $n ->
    [1] { $n } hint available hai.
   *[other] { $n } hints available hain.
}
exercise-model-answer = Model answer:
exercise-mark-ask = Kya aapke answer mein yeh ideas the? y = mujhe aata tha, n = chhoot gaya
exercise-mark-none = Aapke answer mein iska koi idea nahi mila: n = chhoot gaya, phir apne shabdon mein dobara try karo
exercise-why = Kyun:
exercise-seen-reroll = Answer dikhne ke baad sahi hua, isliye yeh "seen" gina jayega: solve karne ke liye { $key } se naye numbers lo.
exercise-seen-later = Answer dikhne ke baad sahi hua, isliye yeh "seen" gina jayega: solve karne ke liye agli baar dobara answer do.
exercise-why-reroll = Ab kyun pata hai, to { $key } se naye numbers lekar idea dobara try karo.
exercise-why-next = Ab kyun pata hai, to { $key } se agli exercise par jao.
exercise-worked = Worked explanation:
exercise-worked-later = Worked explanation pehle answer ke baad khulta hai — ek try karo (guess bhi chalega), ya hint lo.
exercise-your-answer = Aapka answer
exercise-answer = Answer
exercise-feedback = Feedback
exercise-key-show-answer = answer dikhao
exercise-no-more-hints = Saare hints dikh chuke hain: phir try karo, ya answer dekhne ke liye s dabao (type karte waqt Ctrl-S).
exercise-held-hint = Inhi numbers par phir try karo — hint { $n } upar dikh raha hai. { $tries ->
    [one] Ek aur galat answer par answer dikhega;
   *[other] { $tries } aur galat answers par answer dikhega;
} { $key } se abhi dekho.
exercise-held-no-hints = Inhi numbers par phir try karo — saare hints dikh chuke hain. { $tries ->
    [one] Ek aur galat answer par answer dikhega;
   *[other] { $tries } aur galat answers par answer dikhega;
} { $key } se abhi dekho.
exercise-answer-shown = Answer: { $answer } (maangne par dikhaya: ab sahi answer "seen" ginaa jaayega).
exercise-key-previous = pichhla
exercise-key-new-line = nayi line
exercise-key-pane = sawaal/feedback
exercise-key-hint-count = hint { $next }/{ $total }
exercise-key-hint-none = aur hints nahi
exercise-no-hints = Is exercise mein koi hint nahi hai: answer try karo, ya answer dekhne ke liye s dabao (type karte waqt Ctrl-S).
exercise-new-line-note = Enter se submit · Ctrl-J ya Alt-Enter se nayi line
