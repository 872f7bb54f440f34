a = f(
  1, # one
  2 // two
)
