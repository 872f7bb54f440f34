a = <<-EOT
EOT
