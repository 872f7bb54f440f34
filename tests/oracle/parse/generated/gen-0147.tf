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
(
-1 ) ]
a = 0.5
