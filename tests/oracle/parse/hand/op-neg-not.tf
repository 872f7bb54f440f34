x = -!a
