x1 = /* c */ "\n\u00e9".null b_c
for
if
{
}
