in = /* c */ {}
in = /* c */ {}

d-e in "${x}" { k = 1 }
