a = f(b, c...,)
