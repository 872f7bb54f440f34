x1 "${x}" "${x}" {
  k = 1
}if = !"s" ?"%{~ for v in l ~}${v}%{~ endfor ~}": /* c */ x.0.1 if = !"s" ?"%{~ for v in l ~}${v}%{~ endfor ~}": /* c */ x.0.1