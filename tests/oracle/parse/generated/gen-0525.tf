null = # c
[<<EOT
${<<EOT
i
EOT
}
EOT
 ]?( x[*][*] ): ( x[*][*] )null = # c
[1] /* c */ ?<<EOT
${<<EOT
i
EOT
}
EOT
: 1 # c
