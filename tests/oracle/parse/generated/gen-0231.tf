null =
f()
