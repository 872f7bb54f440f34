in = /* c */ {}
in = /* c */ {} # c
d-e in "${x}" { k = 1 } 