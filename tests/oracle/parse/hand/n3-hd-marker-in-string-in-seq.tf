a = <<EOT
${"
EOT
"}
EOT
