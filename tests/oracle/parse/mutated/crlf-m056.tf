a = 1
b = "x"
T
line
EOT
}
