x1
{
} x1
{
} # c
x1
x1
b_c
{
}
