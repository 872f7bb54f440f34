a = <<EOT
${ "}" }
EOT
