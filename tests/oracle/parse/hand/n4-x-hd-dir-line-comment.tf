a = <<EOT
%{ for x in [1] # c
}${x}%{ endfor }
EOT
