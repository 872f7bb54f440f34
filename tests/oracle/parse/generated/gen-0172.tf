in = /* c */ {}
in = /* c */ {} # c
d-e x1 "${x}" { k = 1 } 