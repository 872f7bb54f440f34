x = a ^ b
