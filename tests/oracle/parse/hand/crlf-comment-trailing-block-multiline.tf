a = 1 /* c
 d */
b = 2
