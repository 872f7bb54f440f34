a = ( # c
null )