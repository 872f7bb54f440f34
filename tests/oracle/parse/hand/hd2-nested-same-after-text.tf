a = <<EOT
prefix ${upper(<<EOT
x
EOT
)} suffix
EOT
