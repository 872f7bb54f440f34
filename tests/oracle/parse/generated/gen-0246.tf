for = # c
<<EOT
xy
EOT
.null /* c */ != <<EOT
xy
EOT
.null

