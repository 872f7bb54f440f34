a = "${jsonencode({ "a" = "b" })}"
