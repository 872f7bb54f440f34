x = !!true
