true = x.*.* == # c
-1 true = x.*.* == # c
-1 true = x.*.* == # c
-1 # c
