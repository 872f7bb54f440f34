a = { "true" = 1 }
