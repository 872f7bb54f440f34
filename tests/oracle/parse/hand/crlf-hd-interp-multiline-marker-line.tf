a = <<EOT
${
foo
}
EOT
