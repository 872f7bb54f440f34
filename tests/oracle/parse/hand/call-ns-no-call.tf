x = a::b
