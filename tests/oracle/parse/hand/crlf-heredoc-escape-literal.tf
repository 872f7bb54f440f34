a = <<EOT
back\nslash \" $${a} %%{b}
EOT
