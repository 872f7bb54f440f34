a = for
