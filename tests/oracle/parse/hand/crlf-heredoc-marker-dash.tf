a = <<E-1
hello
E-1
