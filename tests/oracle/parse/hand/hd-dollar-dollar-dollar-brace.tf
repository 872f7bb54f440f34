a = <<EOT
$$${x}
EOT
