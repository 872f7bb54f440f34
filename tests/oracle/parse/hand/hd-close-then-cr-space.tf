a = <<EOT
x
EOT 
