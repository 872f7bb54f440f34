a
{
}
d-e
if
{
}
