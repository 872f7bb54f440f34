x = a["k"]
