a = 'a'
