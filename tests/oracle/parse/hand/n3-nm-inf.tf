a = inf
