a = <<EOT
$$${x}
EOT
