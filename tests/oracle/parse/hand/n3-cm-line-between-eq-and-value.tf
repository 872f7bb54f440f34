a = # c
1
