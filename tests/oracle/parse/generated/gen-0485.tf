a = {"q": <<EOT
h
EOT ?"\q": x, k=!1.5e-3}
