x = a.b*
