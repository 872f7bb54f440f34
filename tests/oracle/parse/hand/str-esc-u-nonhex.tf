a = "\u00zz"
