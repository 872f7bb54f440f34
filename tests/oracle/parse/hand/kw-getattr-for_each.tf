a = b.for_each
