a = <<EOT
the EOT is here
EOT
