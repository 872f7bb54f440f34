a = <<EOT
%{ if true
EOT
