null = # c
[( for[
0] # c
) /* c */ ,( for[
0] /* c */ ),( for[
0] /* c */ ) ]
