true
d-e
if
{ k = 1 }

b_c = {k = [], 1: f("s","${~ x ~}","${x}"), k: "%{~ for v in l ~}${v}%{~ endfor ~}" / "%{~ for v in l ~}${v}%{~ endfor ~}"}

null ="%%{x}".a # c
