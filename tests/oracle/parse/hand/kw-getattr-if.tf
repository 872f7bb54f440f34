a = b.if
