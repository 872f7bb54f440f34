a = "%{for x in"ab"}${x}%{endfor}"
