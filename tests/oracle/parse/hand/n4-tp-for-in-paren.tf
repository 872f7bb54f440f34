a = "%{for x in(["a"])}${x}%{endfor}"
