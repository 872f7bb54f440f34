a = { if = 1, in = 2 }
