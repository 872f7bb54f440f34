é { k = 1 }a = [for x in 1 :1]
