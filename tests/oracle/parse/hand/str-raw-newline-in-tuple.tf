a = ["a
b"]
