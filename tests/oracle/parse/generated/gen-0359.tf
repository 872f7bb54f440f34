true
a
a
{
} # c
d-e
for
"${x}"
{
  k = 1
}
in /* c */ { k = 1 }
