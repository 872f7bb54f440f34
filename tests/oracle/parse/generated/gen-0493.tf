for =(f() )
d-e =[]
for
"${x}"
for
{
  k = 1
}

