a = <<EOT
%{if true}x%{endif}
EOT
