x = - -a
