a = <<EOT
%{ foo }
EOT
