null = {(x): [for k, in "%{ else }" : x if x]}
