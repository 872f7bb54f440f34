for /* c */ é /* c */ "${x}" /* c */ {
} # c
null /* c */ {
} 