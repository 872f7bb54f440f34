a b_c for {}

b_c
if
true
{ k = 1 }
b_c
if
true
{ k = 1 }
