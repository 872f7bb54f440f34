a = <<EOT
%{}
EOT
