a = (
  1 # one
  + 2
)
