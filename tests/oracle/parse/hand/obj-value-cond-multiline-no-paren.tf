a = { k = true ?
1 : 2 }
