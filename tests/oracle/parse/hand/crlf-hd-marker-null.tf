a = <<null
x
null
