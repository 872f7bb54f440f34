d-e
"l"
if
{
}
null = # c
x.*.*

