x1
true
b_c
{
} for
{
} # c
true /* c */ in /* c */ {
  k = 1
}
