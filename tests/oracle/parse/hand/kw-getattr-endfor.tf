a = b.endfor
