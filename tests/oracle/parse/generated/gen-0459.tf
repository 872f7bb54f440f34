a = - -x a = - -x
