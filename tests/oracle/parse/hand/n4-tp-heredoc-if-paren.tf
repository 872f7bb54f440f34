a = <<EOT
%{if(true)}y%{endif}
EOT
