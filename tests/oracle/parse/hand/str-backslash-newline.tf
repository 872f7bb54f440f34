a = "a\
b"
