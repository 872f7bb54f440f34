a = <<- EOT
x
EOT
