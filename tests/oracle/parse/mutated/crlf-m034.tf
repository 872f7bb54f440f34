a = 1
b = "x"
blo
EOT
}
