a = <<eot
hello
eot
