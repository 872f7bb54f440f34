if = # c
for.*
