if = f(<<EOT
${
EOT
}
EOT
 - # c
"${~ x ~}",0.5+ x)
