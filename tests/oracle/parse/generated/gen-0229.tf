x1 = for.a.a
