a /* c */ {
}
null ="%{ else }" # c
?<<-EOT
  h
  EOT
: /* c */ "${x}"
