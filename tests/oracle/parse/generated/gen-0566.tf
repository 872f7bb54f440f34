x1
true
b_c
{
} x1
{
} # c
x1
true
b_c
{
}
