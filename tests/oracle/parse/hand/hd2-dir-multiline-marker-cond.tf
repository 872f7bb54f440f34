a = <<EOT
%{ if
EOT
}y%{ endif }
EOT
