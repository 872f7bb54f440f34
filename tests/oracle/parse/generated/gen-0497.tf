for
"${x}"
b_c
{
  k = 1
}

for
b_c
for
{
  k = 1
}

for
"${x}"
for
{
  k = 1
}

