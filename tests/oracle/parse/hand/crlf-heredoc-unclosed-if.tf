a = <<EOT
%{ if a }
x
EOT
