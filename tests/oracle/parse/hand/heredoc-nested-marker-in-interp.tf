a = <<EOT
${"EOT"}
EOT
