a = <<EOT
%%{
EOT
