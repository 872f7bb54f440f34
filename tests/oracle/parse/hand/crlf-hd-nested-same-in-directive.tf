a = <<EOT
%{ if <<EOT
x
EOT
== "x\n" }yes%{ endif }
EOT
