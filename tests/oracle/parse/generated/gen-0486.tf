a = {"q": <<EOT
h
EOT ?<<EOT
x
EOT
: x, k=!1.5e-3}
