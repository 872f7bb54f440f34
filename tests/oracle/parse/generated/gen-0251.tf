null = {} ?{}:x[*].y.*.b
