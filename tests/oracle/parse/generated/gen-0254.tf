in { k = 1 }

in {}
