true = # c
{} # c
if /* c */ "" /* c */ "a\nb" /* c */ {
} # c
