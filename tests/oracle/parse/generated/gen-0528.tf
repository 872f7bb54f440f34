if é "${x}" {} x1
{
  k = 1
}if
{
} # c
