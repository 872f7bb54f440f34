x = true(1)
