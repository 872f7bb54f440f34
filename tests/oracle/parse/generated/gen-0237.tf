null =
""!= "%%{x}"
!=
x[*].y ?{}: {for k, in a-b : # c
[] => []}
true
"a\nb"
in
{}
