null = # c
[<<EOT
${<<EOT
i
EOT
}
EOT
 ]?( <<EOT
${<<EOT
i
EOT
}
EOT
 ): ( x[*][*] )null = # c
[1] /* c */ ?<<EOT
${<<EOT
i
EOT
}
EOT
: 1 # c
