if = 1
