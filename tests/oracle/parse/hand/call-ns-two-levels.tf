x = a::b::c()
