a = <<EOT
${"$${"}
EOT
