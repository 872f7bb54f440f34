a = <<EOT
${ a
EOT
