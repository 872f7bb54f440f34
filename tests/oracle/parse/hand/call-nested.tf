x = f(g(h(1)))
