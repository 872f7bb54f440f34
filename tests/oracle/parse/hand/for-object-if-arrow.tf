x = {for x in y : x => x if x}
