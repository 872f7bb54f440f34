x = [for é in y : é]
