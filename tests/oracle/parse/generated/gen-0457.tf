b_c =[null  a‿b  true] b_c = [false ,
<<EOT
${<<EOT
i
EOT
}
EOT
,
a‿b ]
é = # c
a·b.null 