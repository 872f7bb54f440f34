if
{}

x1
{
}

if
{}

