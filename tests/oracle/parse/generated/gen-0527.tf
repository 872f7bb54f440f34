null = # c
1 ?1 /
1: 0.5
+ 1e3null = # c
[1] /* c */ ?<<EOT
${<<EOT
i
EOT
}
EOT
: 1 # c
