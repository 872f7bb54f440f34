a = [for v in x : {for k, w in v : k => w}]
