a = /* c */ [for for in "\n\u00e9" /* c */ -
"\n\u00e9" : # c
"\n\u00e9" /* c */ -
null] a =
[for for in x.0.1 : # c
1e3 # c
* x if x]
