a = <<EOT
%{ IF a }x%{ ENDIF }
EOT
