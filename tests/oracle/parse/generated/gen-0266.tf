null = ( {for = "${", 1 = "\q", k=1e3})
