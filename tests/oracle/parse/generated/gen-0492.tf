for =(f() )
d-e =[]
é
"${x}"
for
{
  k = 1
}

