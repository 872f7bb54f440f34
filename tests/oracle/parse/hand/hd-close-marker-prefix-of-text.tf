a = <<EO
EOT
EO
