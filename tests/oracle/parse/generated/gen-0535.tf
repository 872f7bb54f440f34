if
"l"
{
  k = 1
}
if /* c */ {
  k = 1
}
x1
{}
