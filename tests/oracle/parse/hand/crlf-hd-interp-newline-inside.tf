a = <<EOT
${ 1 +
 2 }
EOT
