a = <<EOT
%{ for k, v in m }${k}%{ endfor }
EOT
