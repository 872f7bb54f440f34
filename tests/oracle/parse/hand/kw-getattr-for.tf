a = b.for
