for
{
} if =
( /* c */ "s" # c
+ <<-EOT
	%{ if x ~}
	y
	%{ endif }
	EOT
 &&"%{~ for v in l ~}${v}%{~ endfor ~}"% /* c */ for )

x1 /* c */ x1 /* c */ "a\nb" /* c */ { k = 1 } 