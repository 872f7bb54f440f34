d-e = # c
1 /* c */ != /* c */ 1
for
{ k = 1 }

d-e
{ k = 1 }

