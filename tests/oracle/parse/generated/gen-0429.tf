in = x
/ /* c */ "s" /* c */ / a::b::f([], 1...) # c
in { k = 1 }
true =
[!- -x[*][*] /* c */ ,(
{(x) = false} # c
) ,{for k, in false ?p::f(1): "$${x}" : # c
[] => []
if x} /* c */ ] 