a = <<Eot
x
Eot
