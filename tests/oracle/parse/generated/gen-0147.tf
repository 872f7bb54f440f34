if = []if = []
