a = in.b
