a = <<EOT
%{ if a &&
 b }x%{ endif }
EOT
