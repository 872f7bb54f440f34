in
"a\nb"
"${x}"
{
  k = 1
}