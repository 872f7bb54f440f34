x = if(1)
