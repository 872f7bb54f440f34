a = <<-EOT
EOT
