a <<EOT
x
EOT
{}
