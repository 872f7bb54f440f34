a = <<EOT
x
	EOT
