null =a::b::f(<<EOT
cat <<EOT
EOT
) * <<EOT
cat <<EOT
EOT
.a
