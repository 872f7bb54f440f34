null ="%{ else }" # c
?"%{ else }": /* c */ "${x}"
null ="%{ else }" # c
?<<-EOT
  h
  EOT
: /* c */ "${x}"
