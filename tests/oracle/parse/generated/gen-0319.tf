in = null ?1.5e-3: -1
