é =
[for for in {} :
{} if x]
