a = <<EOT
hello
EOT	
