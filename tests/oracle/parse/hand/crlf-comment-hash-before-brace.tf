resource "a" "b" # c
{
}
