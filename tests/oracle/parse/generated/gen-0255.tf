in { k = 1 }

in { k = 1 }
