# Lessons: list (Home → Learn) aur lesson ke pages.
lesson-list-title = Seekho
lesson-list-intro = Har topic ka ek lesson: idea, live diagram par worked example, ek step jo tum khud poora karoge, phir us topic ki exercises.
lesson-list-none = Koi lesson load nahi hua.
lesson-read = padh liya
lesson-new = { $pages } pages
lesson-at-page = { $pages } mein se page { $page }
lesson-title = Lesson · { $title }
lesson-page-of = { $page }/{ $pages }
lesson-key-next = agla page
lesson-key-previous = pichhla page
lesson-key-change = badlo
lesson-key-control = doosri setting
lesson-key-practise = practice karo
lesson-practise-exercise = Practice ke liye { $key } dabao: { $level } · { $title }
lesson-practise-ladder = Ladder kholne ke liye { $key } dabao.
lesson-offer = Pehle lesson: { $topic } (L dabao)
home-learn = Seekho: live diagrams wale lessons
