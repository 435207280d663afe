lang-name = 한국어
lang-setting = 언어
lang-switched = 언어: { $name }
untranslated-mark = 영어 원문
count-sectors = sector { $n }개
