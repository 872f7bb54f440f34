a = b.false
