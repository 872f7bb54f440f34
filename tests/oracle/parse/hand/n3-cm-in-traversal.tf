a = b /* c */ .c
