a = b.endif
