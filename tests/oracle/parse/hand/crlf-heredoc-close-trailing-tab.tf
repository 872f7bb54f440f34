a = <<EOT
hello
EOT	
