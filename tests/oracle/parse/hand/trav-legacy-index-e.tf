a = x.1e2
