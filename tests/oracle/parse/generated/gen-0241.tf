for = {for k, in f(x...)
?x.0: /* c */ "" :
- -x.0 => - -x.0
if x}