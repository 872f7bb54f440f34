é { k = 1 }b_c = !!( # c
[x.y ] ) if ={for = !<<EOT
${<<EOT
i
EOT
}
EOT
,
in = [],
1=<<-EOT
	%{ if x ~}
	y
	%{ endif }
	EOT
}

