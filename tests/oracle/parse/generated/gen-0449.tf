in ={for x in {for k, in x.y :x.y => x.y
if x} :-[for k, v in <<-EOT
	%{ if x ~}
	y
	%{ endif }
	EOT
 :1] => -[for k, v in <<-EOT
	%{ if x ~}
	y
	%{ endif }
	EOT
 :1]
if x}
