a = <<for
x
for
