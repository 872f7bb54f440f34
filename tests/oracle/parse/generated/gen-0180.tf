if
{}
a =
[for for in x.0.1 : # c
"\n\u00e9" /* c */ -
null] 