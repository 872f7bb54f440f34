for
"a\nb"
{} 