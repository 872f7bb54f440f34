d-e = ["%{~ for v in l ~}${v}%{~ endfor ~}"  1 /* c */  1 ]
if = [x.y /* c */  1.5e-3 "${x}" ]