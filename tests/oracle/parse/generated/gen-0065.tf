in =f()?true: a-b
é =
(
"${~ x ~}" /* c */ )null = # c
[for x in false : <<EOT
h
EOT] 