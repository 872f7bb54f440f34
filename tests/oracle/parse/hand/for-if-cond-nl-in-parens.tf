a = [for v in x : v if (v
> 1)]
