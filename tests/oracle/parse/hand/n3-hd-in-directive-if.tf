a = <<EOT
%{ if <<EOT
y
EOT
 == "y\n" }yes%{ endif }
EOT
