x1 {}

b_c =- -f(f("${", "\q", -1...),
{for k, v in x.*.y : false => false if x}...) # c
x1 /* c */ {
} # c
