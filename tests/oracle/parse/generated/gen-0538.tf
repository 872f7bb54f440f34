if
"l"
{
  k = 1
}
if
"l"
{
  k = 1
}
if
"l"
{
  k = 1
}
