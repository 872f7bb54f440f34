a = <<EOT
%{ if a }x%{ else x }y%{ endif }
EOT
