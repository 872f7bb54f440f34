a = <<EOT
${ <<X
y
X
}
EOT
