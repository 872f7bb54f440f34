null =
[for for in x.*.y- 1 :1e3.*.b if x] null = /* c */ a::b::f() /* c
 */
