x = foo::upper("x")
