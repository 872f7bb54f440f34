x = a-b::c()
