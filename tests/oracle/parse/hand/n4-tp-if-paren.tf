a = "%{if(true)}y%{endif}"
