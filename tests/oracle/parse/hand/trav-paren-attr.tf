x = (a).b
