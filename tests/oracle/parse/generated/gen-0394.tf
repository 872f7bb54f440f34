b_c = f() # c
?"$$${x}" ?<<EOT
${
EOT
}
EOT
: <<EOT
xy
EOT
: true 