x = [for in in y : in]
