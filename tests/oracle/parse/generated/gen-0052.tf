for = # c
1 /* c */ != /* c */ 1
d-e
{ k = 1 }

d-e
{ k = 1 }

