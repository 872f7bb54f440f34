for = # c
1.null /* c */ <( # c
<<EOT
xy
EOT
)