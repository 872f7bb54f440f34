a = <<_EOT
hello
_EOT
