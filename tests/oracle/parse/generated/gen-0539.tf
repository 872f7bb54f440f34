if
"l"
{}
if
"l"
{
  k = 1
}
a {}
