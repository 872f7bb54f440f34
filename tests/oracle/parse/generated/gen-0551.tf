a = p::f()a = p::f()
