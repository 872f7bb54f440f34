x1 =
[for x in a::b::f() : /* c */ [] /* c */ ?0.5: "\n\u00e9"
if x]
