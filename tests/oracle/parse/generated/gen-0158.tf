d-e ={(x): - -[]
"q" = -null.null
1 = {for k, v in {(x): é,
1=x.*.y} : -1 /* c */ ?"\U00300000": null => -1 /* c */ ?"\U00300000": null
if x}}