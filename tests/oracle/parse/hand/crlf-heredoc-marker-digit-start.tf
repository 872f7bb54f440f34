a = <<1E
hello
1E
