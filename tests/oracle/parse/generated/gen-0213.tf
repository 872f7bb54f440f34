null = {(x): [for x in "${~ x ~}" : "${~ x ~}"
if x]}