a = true
  && false
