a = <<EOT
%%{
EOT
}
