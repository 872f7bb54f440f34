a = <<EOT
${ "a\"}" }
EOT
