null =
0.5
