a = <<EOT
${"${<<EOT
x
EOT
}"}
EOT
