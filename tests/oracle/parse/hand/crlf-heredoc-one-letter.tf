a = <<E
hello
E
