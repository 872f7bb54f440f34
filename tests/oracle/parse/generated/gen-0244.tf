for = # c
<<EOT
xy
EOT
.null /* c */ <( # c
<<EOT
xy
EOT
 # c
)