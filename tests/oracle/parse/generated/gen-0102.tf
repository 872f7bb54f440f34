if
{
} if =
( /* c */ "s" # c
&& "%{~ for v in l ~}${v}%{~ endfor ~}" &&"%{~ for v in l ~}${v}%{~ endfor ~}"% /* c */ for )

if
{
} 