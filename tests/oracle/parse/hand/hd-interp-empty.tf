a = <<EOT
${}
EOT
