if = f(<<EOT
${
EOT
}
EOT
 - # c
"${~ x ~}",[for k, v in "%%{x}" :x],[] == <<EOT
h
EOT,)

for "l" { k = 1 }

