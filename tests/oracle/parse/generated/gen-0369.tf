for
x1
{
  k = 1
} # c
