a = <<EOT
%%{
EOT
}
