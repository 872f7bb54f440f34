a = <<E.T
hello
E.T
