b_c
x1
for
{
} # c
in = # c
[{"q": "%%{x}", null="s", in="${ {a = 1}.a }"}.0 ]
