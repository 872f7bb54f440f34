a = <<EOT
${}
EOT
