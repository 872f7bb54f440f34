a = <<EOT
$${
EOT
}
