a = <<EOT
%{ if a }x%{ else }y%{ else }z%{ endif }
EOT
