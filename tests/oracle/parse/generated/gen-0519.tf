for
a
in
{} 