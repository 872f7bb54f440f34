a = <<eot
hello
eot
