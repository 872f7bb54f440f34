d-e = ["%{~ for v in l ~}${v}%{~ endfor ~}"  1 /* c */  1 ]
if = ["%{~ for v in l ~}${v}%{~ endfor ~}"  1 /* c */  1 ]