a = <<EOT
%{ if true }
EOT
%{ endif }
EOT
