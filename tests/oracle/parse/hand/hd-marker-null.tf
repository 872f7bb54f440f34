a = <<null
x
null
