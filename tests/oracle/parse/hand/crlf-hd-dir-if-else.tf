a = <<EOT
%{ if a }x%{ else }y%{ endif }
EOT
