x1 /* c */ { k = 1 }
for = a²% a‍b
