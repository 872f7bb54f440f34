a = <<EOT
$${
EOT
