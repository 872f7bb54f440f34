a = <<EOT
${ join("", [for s in [<<EOT
x
EOT
] : s]) }
EOT
