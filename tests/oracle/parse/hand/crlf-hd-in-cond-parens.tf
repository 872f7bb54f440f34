a = (true ? <<EOT
x
EOT
: "y")
