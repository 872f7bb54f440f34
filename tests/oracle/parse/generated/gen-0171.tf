for = [for , "" , 0.5 # c
]
in = /* c */ {} # c
d-e x1 "${x}" { k = 1 } 