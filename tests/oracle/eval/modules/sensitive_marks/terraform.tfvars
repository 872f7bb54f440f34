secret = "Tok3n-Marker"
csv    = "name,size\np1,1\np2,2\n"
l      = ["1", "2"]
m      = { a = "x", b = "y" }
o      = { user = "admin" }
