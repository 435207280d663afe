lang-name = Hinglish
lang-setting = Bhasha (language)
lang-switched = Bhasha: { $name }
untranslated-mark = English
count-sectors = { $n ->
    [1] { $n } sector
   *[other] { $n } sectors
}
common-key-open = kholo
common-key-back = peeche
common-key-quit = quit
common-key-help = help
common-key-search = search
common-key-select = chuno
common-key-move = move
common-key-close = band
common-simply = Aasaan bhasha mein:
scroll-more-below = ↓ { $rows } aur · PgDn
scroll-more-above = ↑ { $rows } aur
scroll-key = scroll karo
