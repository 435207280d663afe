lang-name = Hinglish
lang-setting = Bhasha (language)
lang-switched = Bhasha: { $name }
untranslated-mark = English
count-sectors = { $n ->
    [one] { $n } sector
   *[other] { $n } sectors
}
