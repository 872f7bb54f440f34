a = "x
y"
