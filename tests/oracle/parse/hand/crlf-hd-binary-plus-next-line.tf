a = <<EOT
x
EOT
+ "y"
