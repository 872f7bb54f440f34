in = null ?-1: -1
