x = a.1e5
