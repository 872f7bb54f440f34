a = (b
  .c)
