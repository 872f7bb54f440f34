a = <<EOT
${ {a = {
EOT = 1
}}.a.EOT }
EOT
