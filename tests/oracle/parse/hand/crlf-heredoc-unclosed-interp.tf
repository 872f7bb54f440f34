a = <<EOT
${ a
EOT
