x = [for x in y : x
  if x]
