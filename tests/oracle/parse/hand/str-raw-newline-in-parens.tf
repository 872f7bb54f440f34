a = ("a
b")
