a = <<EOT
$${a}
EOT
