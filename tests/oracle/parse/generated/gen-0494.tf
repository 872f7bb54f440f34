for
"${x}"
for
{
  k = 1
}

d-e =[]
for
"${x}"
for
{
  k = 1
}

