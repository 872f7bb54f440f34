a = <<EOT
%{}
EOT
