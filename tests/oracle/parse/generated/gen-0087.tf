b_c
{
}
b_c
{}
for /* c */ "l" /* c */ "a\nb" /* c */ {
  k = 1
}

