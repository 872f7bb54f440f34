if =
( /* c */ false # c
&& "a${x}b" &&"a${x}b"% /* c */ null ) # c
if =
( /* c */ false # c
&& "a${x}b" &&"a${x}b"% /* c */ null ) # c
if
{
} # c
