if
{}

x1
{
} # c
if
{}

