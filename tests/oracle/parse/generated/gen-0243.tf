for = [for k, in 1.5e-3 ?1.5e-3: -1 : [] if x]
