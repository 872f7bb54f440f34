a = "%{ if <<EOT
x
EOT
!= "" }y%{ endif }"
