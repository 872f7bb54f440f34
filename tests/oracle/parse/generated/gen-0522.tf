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
 )b_c /* c */ "a\nb" /* c */ b_c /* c */ {
  k = 1
}
