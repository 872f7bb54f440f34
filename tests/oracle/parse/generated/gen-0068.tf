é =
(
"${~ x ~}" /* c */ )
é =
(
"${~ x ~}" /* c */ )null = # c
[for x in false : <<EOT
h
EOT] 