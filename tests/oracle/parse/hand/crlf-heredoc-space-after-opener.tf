a = <<EOT 
hello
EOT
