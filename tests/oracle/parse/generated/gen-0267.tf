b_c
b_c
{
}
b_c
b_c
{
}

