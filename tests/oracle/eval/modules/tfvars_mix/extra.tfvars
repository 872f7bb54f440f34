node_count = 10
validated  = "far too long"
