if if "${x}" {} x1
{
  k = 1
}if
{
} # c
