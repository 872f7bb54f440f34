a = <<EOT
xEOT
