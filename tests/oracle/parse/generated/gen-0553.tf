a = p::f({k: <<EOT
xy
EOT
.*.b},{k: <<EOT
h ${x}
EOT

k = 1e3},{k: <<EOT
xy
EOT
.*.b}) 