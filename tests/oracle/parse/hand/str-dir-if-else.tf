a = "%{if a}b%{else}c%{endif}"
