a = <<EOT
${ {a = 1,
b = 2
}.a }
EOT
