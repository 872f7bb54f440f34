a = <<EOT
x
%{~ if true ~}
%{~ endif ~}
EOT
