a = b.else
