é = {}
for /* c */ null /* c */ {}é {}
