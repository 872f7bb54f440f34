a = { if = 1 }
