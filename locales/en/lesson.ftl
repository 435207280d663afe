# Lessons: the list (Home → Learn) and a lesson's pages.
lesson-list-title = Learn
lesson-list-intro = One lesson per topic: the idea, a worked example on a live diagram, one step for you to finish, then the topic's exercises.
lesson-list-none = No lessons are loaded.
lesson-read = read
lesson-new = { $pages } pages
lesson-at-page = page { $page } of { $pages }
lesson-title = Lesson · { $title }
lesson-page-of = { $page }/{ $pages }
lesson-key-next = next page
lesson-key-previous = previous page
lesson-key-change = change
lesson-key-control = other setting
lesson-key-practise = practise
lesson-practise-exercise = Press { $key } to practise: { $level } · { $title }
lesson-practise-ladder = Press { $key } to open the ladder.
lesson-offer = Lesson first: { $topic } (press L)
home-learn = Learn: lessons with live diagrams
