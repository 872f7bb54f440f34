for = # c
1 /* c */ != <<EOT
xy
EOT
.null

