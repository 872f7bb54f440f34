a = <<EOT
$${
EOT
}
