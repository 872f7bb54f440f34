x1
true
b_c
{
} x1
{
} # c
x1
x1
b_c
{
}
