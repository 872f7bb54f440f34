a
{
}

d-e
if
{
}
