a = <<EOT
%{ for a, b, c in l }y%{ endfor }
EOT
