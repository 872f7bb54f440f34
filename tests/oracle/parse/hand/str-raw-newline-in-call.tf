a = f("a
b")
