é =
(
"${~ x ~}" /* c */ )
é =
(
"${~ x ~}" /* c */ )é = # c
[for x in false : <<EOT
h
EOT] 