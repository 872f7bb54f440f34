a = for(1)
