a = [for é in x : é]
