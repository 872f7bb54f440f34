a = <<EOT
${"EOT"}
EOT
