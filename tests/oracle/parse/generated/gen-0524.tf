null = # c
[<<EOT
${<<EOT
i
EOT
}
EOT
 ]?( x[*][*] ): ( # c
<<EOT
${<<EOT
i
EOT
}
EOT
 )null = # c
[1] /* c */ ?<<EOT
${<<EOT
i
EOT
}
EOT
: 1 # c
