a = <<EOT
{ } } {
EOT
