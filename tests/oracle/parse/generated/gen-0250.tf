null = {} ?{for = f(x...)}:x[*].y.*.b
