a = <<-EOT
  #!/bin/sh
  for f in $(ls); do
    echo "$${f}" > /dev/null
  done
  EOT
