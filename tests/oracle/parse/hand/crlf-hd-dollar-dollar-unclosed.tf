a = <<EOT
$${
EOT
