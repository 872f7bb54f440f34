a = "%{for inx in [1]}${inx}%{endfor}"
