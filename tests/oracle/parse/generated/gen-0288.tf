d-e = {}
for /* c */ null /* c */ {}é {}
