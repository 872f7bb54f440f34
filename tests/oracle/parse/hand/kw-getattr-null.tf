a = b.null
