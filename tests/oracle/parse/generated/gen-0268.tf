b_c
b_c
{
}
a {
}
