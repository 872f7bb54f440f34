for
for
"${x}"
{
}
