x = a . b
