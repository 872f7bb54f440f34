a = <<EOT
%{ for x in [<<EOT
y
EOT
, "z"] }${x}
%{ endfor }
EOT
