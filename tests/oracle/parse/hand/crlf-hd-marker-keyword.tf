a = <<for
x
for
