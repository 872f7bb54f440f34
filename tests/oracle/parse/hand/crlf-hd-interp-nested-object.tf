a = <<EOT
${ {a = 1}.a }
EOT
