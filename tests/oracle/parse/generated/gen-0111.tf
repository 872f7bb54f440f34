if
{
} # c
if =
( /* c */ false # c
+ x.*.* &&"a${x}b"% /* c */ null ) # c
if
{
} # c
