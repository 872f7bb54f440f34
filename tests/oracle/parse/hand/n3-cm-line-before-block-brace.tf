a "b" # c
{
}
