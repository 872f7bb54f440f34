if
{}

x1
"${x}"
{
} # c
if
{}

