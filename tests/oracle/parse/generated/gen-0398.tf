in
"a\nb"
"a\nb"
{
  k = 1
}