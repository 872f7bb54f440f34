null = # c
[( for[
0] # c
) /* c */ ,( for[
0] /* c */ ),( 1.5e-3.null ) ]
