true = # c
{} # c
a {}
