x = a.*.b
