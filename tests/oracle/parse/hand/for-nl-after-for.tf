x = [for
  x in y : x]
