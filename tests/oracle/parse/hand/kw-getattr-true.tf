a = b.true
