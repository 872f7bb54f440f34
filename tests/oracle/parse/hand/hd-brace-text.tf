a = <<EOT
{ } } {
EOT
