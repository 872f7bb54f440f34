a = b.in
