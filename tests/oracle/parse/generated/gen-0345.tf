é = 1.5e-3 # c
% "\n\u00e9"b_c ="\n\u00e9"
&& "%{~ for v in l ~}${v}%{~ endfor ~}"if =( ""
?0.5:"${x}" )

