x1 "${x}" "${x}" {
  k = 1
}b_c = /* c */ {for x in -1.*.b : # c
x[*][*] => x[*][*]
if x} if = !"s" ?"%{~ for v in l ~}${v}%{~ endfor ~}": /* c */ x.0.1