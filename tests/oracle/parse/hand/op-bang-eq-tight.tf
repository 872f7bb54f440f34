a = x!=y
