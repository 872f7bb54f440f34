a = "%{if!false}y%{endif}"
