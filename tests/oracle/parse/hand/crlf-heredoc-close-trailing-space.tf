a = <<EOT
hello
EOT  
