d-e
"l"
if
{
}
a {
  k = 1
}
