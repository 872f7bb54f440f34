a = <<EOT
%%{a}
EOT
