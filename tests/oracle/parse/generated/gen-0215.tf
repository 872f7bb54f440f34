null = {(x): [for k, in "%{ else }" : "%{ else }" if x]}
