a = <<EOT
%{ if a }x%{ else if b }y%{ endif }
EOT
