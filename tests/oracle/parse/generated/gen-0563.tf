x1
if
b_c
{
} for
{
} # c
true /* c */ in /* c */ {
  k = 1
}
