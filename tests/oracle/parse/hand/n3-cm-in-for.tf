a = [for /* c */ x in [1] : x]
