a = <<-EOT
		x
	EOT
