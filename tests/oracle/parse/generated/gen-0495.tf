for
"${x}"
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

for
"${x}"
for
{
  k = 1
}

