x = { if = 1 }
