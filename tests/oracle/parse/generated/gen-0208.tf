a = [for x in false : false]
