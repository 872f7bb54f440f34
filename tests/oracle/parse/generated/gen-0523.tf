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
 )