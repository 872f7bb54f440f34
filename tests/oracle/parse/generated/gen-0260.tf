null ="%{ else }" # c
?<<-EOT
  h
  EOT
: /* c */ "${x}"
null ="%{ else }" # c
?<<-EOT
  h
  EOT
: /* c */ "${x}"
