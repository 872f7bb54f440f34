a = "%{if a}x%{endif}"
