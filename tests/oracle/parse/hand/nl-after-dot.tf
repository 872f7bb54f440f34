a = b.
  c
