a = <<EOT
${ "}" }
EOT
