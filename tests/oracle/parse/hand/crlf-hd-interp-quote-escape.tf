a = <<EOT
${ "a\"}" }
EOT
