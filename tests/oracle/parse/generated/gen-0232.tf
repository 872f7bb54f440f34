null =
f(1.5e-3)
