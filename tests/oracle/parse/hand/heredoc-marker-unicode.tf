a = <<ÉOT
hello
ÉOT
