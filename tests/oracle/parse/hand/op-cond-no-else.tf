x = a ? b
