a = "x y"
