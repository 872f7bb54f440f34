if
{
} # c
if =
( /* c */ false # c
+ x.*.* &&"a${x}b"% /* c */ null ) # c
x1 /* c */ x1 /* c */ "a\nb" /* c */ { k = 1 } # c
