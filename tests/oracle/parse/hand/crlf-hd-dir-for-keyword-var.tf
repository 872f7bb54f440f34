a = <<EOT
%{ for in in l }y%{ endfor }
EOT
