if = f(-true,true)
