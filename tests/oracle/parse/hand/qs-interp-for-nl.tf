a = "${ join(",", [for x in [1] :
x]) }"
