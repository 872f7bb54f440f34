a = { true = 1 }
