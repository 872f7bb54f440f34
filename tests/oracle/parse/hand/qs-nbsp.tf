a = "x y"
