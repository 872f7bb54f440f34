a = x.for.in.if
