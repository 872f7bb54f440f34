for_each = 1
