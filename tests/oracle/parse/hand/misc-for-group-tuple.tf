a = [for x in l : x...]
