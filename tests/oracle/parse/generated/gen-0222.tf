x1 = 1

b_c =- -f(f("${", "\q", -1...),{for k, v in x.*.y : false => false if x},( 1e3),)
