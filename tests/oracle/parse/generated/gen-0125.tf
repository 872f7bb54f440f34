in = # c
!!1.5e-3
?0.5: # c
[for for in 1 : /* c */ x.*.*
if x]