if = 1
in = 2
for = 3
null = 4
true = 5
false = 6
