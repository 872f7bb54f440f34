x = f(# c
)
