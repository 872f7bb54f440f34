a = <<Eot
x
Eot
