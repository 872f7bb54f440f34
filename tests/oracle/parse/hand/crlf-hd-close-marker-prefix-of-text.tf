a = <<EO
EOT
EO
