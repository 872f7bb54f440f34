a = <<EOT
%%{a}
EOT
