in = /* c */ {}
in = /* c */ {} # c
