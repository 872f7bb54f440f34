x = [for k
  , v in y : v]
