# Words and phrases used across the tutor.
lang-name = English
lang-setting = Language
lang-switched = Language: { $name }
untranslated-mark = English
count-sectors = { $n ->
    [one] { $n } sector
   *[other] { $n } sectors
}
common-key-open = open
common-key-back = back
common-key-quit = quit
common-key-help = help
common-key-search = search
common-key-select = select
common-key-move = move
common-key-close = close
common-simply = Simply:
scroll-more-below = ↓ { $rows } more · PgDn
scroll-more-above = ↑ { $rows } more
scroll-key = scroll
