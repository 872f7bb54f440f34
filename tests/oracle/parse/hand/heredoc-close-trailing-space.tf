a = <<EOT
hello
EOT  
