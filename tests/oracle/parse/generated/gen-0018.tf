d-e = # c
1
