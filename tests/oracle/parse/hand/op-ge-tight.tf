a = x>=y
