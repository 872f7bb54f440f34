x1 = {k = 1.5e-3.*.b ?[for x in x.0.1 : /* c */ a-b]:
( "a${x}b" # c
)}if /* c */ "${x}" /* c */ {
} # c
