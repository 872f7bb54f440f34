null = ( {for = "${", 1 = "\q", for = "${"})
