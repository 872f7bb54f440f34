if = f(<<EOT
${
EOT
}
EOT
 - # c
"${~ x ~}",[for k, v in "%%{x}" :x],[for x in x : <<EOT
h
EOT])
