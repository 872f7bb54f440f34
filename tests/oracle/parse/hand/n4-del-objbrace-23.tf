a = <<EOT
${ {a = "}"}. }
EOT
