a = "%{for x[0] in [1]}%{endfor}"
