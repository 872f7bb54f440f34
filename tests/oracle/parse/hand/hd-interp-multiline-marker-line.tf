a = <<EOT
${
foo
}
EOT
