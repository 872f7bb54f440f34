é =
false[*]
