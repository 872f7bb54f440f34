in ={} # c
