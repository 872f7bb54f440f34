a = <<EOT
%{ if a }x%{ endif x }
EOT
