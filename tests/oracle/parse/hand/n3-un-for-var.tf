a = [for ξ in [1] : ξ]
