if = {in = 1 +a-b, k = "%{ else }" / a-b}
