a = !
  true
