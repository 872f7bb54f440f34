é = x[*][*] && /* c */ "%{ if x }y%{ endif }" # c
for
{
  k = 1
} true {}