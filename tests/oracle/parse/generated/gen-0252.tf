null = 1.*
