a = <<EOT
%{ if a == "}" }x%{ endif }
EOT
