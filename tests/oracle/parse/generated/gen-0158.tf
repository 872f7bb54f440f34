true = # c
{} # c
true = # c
{}
