a = <<ÉOT
hello
ÉOT
