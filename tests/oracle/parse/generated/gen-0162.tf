d-e ={(x): -!null, "q" = -null.null, 1 = [for k, v in {(x): é,
(x): null} : # c
{}]}

