a = <<EOT
%{ for x in
 l }y%{ endfor }
EOT
