a = x.
y
