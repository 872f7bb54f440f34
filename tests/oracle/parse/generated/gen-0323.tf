for = x.0% x.0.1
