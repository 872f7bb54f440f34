a = <<EOT
%{ foo }
EOT
