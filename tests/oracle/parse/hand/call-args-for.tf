x = f([for x in y : x])
