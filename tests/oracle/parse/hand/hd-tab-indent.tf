a = <<-EOT
		x
	EOT
