é /* c */ true /* c */ {
  k = 1
} # c
if = ([for k, in x.0.1 : p::f(1) if x]
)

