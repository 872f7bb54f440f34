null = [for x in false : <<EOT
h
EOT]
é =
(
"${~ x ~}" /* c */ )null = # c
[for x in false : <<EOT
h
EOT] 