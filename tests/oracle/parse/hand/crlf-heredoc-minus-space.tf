a = <<- EOT
x
EOT
