x1
true
b_c
{
} x1
{
} # c
true /* c */ in /* c */ {
  k = 1
}
