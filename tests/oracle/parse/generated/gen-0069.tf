null =a::b::f(1) * <<EOT
cat <<EOT
EOT
.a
