a = <<EOT
$${a}
EOT
