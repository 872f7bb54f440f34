a = <<EOT
x
	EOT
