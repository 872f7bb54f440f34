a = <<E
hello
E
