# Review screen (src/ui/review.rs) aur scheduler ke words jo us par dikhte hain (src/srs).

## Footer ke words; keys wahi rehti hain.
review-key-show-answer = answer dekho
review-key-undo = undo
review-key-suspend = suspend
review-key-bury = bury
review-key-back = wapas
review-key-rate = rate karo
review-key-good = theek
review-key-check = check karo
review-key-hint = hint
review-key-accept = rating maano
review-key-choose = rating chuno

## Chaar ratings.
review-rating-again = Phir se
review-rating-hard = Mushkil
review-rating-good = Theek
review-rating-easy = Aasan

## Card kab wapas aayega, button par: chhota.
review-interval-minutes = { $n }m
review-interval-hours = { $n }h
review-interval-days = { $n } din
review-interval-months = { $n } mahine
review-interval-years = { $n } saal

review-title = Revision · { $topic }
review-title-plain = Revision
review-title-done = ho gaya
review-counts = naye { $new } · seekh rahe { $learning } · due { $due }
review-unavailable = Revision abhi nahi ho sakta: review log khul nahi paaya.
review-show-answer = Answer dekhne ke liye Space ya Enter dabao.
review-hint = hint: { $hint }
review-proposed = Suggested: { $rating } — Enter se maano, 1-4 se chuno

## Session khatam hone par.
review-done = Abhi ke liye bas.
review-summary = { $n ->
    [1] { $n } card
   *[other] { $n } cards
} review kiye · phir se { $again } · time { $time }
review-next-due = Agla card { $when } due hai.
review-when-minutes = { $n } min mein
review-when-hours = { $n } ghante mein
review-when-tomorrow = kal
review-when-days = { $n } din mein
review-when-new-cards = jab tum naye cards add karoge
review-done-keys = u se last rating wapas lo; q se wapas jao.
review-no-more-hints = Saare hints dikh chuke hain: apna answer type karo aur Enter dabao.
review-no-hints = Is drill mein koi hint nahi hai: apna answer type karo aur Enter dabao.
review-suspended = Suspend ho gaya: unsuspend karne tak ye review mein nahi aayega (u se wapas lo).
review-buried = Kal tak bury ho gaya (u se wapas lo).
review-undone-rating = Last rating wapas le li gayi.
review-undone-suspend = Suspend wapas liya: card phir se review mein hai.
review-undone-bury = Bury wapas liya: card phir se review mein hai.
review-undone-earlier = Pichhle session ka ek badlaav wapas le liya gaya.
review-put-aside = Alag rakhe: suspend { $suspended } · bury { $buried }
review-new-limit = Aaj ki { $limit } naye cards ki limit poori ho gayi; { $n } naye cards wait kar rahe hain. Aaj aur seekhna hai to `{ $command }` se shuru karo.
