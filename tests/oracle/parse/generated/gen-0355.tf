true
"l"
if
{ k = 1 }

x1
"${x}"
{
} # c
if
{}

