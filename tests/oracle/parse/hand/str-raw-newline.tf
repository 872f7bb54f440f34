a = "a
b"
