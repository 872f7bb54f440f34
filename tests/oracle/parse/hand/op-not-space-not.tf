x = ! !true
