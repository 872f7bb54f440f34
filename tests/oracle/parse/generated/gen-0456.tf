b_c =[null  "${ {a = 1}.a }"  true] b_c = [false ,
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