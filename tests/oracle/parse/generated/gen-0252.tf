in { k = 1 }
in = (null /* c */ )

d-e "" { k = 1 } 