x = !true
