d-e
"l"
if
{
}
d-e
"l"
if
{
}

