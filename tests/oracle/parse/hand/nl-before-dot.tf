a = b
  .c
