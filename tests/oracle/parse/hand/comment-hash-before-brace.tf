resource "a" "b" # c
{
}
