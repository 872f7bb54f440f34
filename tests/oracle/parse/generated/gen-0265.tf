a b_c {}
b_c
null
{
}

