# Words and phrases used across the tutor.
lang-name = English
lang-setting = Language
lang-switched = Language: { $name }
untranslated-mark = English
count-sectors = { $n ->
    [one] { $n } sector
   *[other] { $n } sectors
}
