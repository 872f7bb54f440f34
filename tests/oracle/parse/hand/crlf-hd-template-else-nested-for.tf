a = <<EOT
%{ if true }%{ for x in [1] }${x}%{ endfor }%{ else }none%{ endif }
EOT
