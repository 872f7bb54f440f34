b_c for {
  k = 1
}

for = [(
<<-EOT
	%{ if x ~}
	y
	%{ endif }
	EOT
 ) /* c */ ?f(a²,
"$$${x}"): # c
( "\U00300000" ) ]

