if
{
} if =
( /* c */ "s" # c
+ <<-EOT
	%{ if x ~}
	y
	%{ endif }
	EOT
 &&"%{~ for v in l ~}${v}%{~ endfor ~}"% /* c */ for )

if
{
} 