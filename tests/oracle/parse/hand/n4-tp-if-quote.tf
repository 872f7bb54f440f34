a = "%{if"a"=="a"}y%{endif}"
