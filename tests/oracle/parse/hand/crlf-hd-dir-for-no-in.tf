a = <<EOT
%{ for x }y%{ endfor }
EOT
