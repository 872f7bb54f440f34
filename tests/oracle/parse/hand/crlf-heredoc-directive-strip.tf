a = <<EOT
%{ for x in y ~}
  ${x}
%{ endfor ~}
EOT
