a
{
  k = 1
} x1
"a\nb"
{
  k = 1
}a {}

