null = /* c */ (<<EOT
xy
EOT
 # c
)
/ x[*][*][*]
b_c = /* c */ (<<EOT
xy
EOT
 # c
)
/ x[*][*][*]b_c = /* c */ (<<EOT
xy
EOT
 # c
)
/ x[*][*][*]