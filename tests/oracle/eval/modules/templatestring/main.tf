locals {
  tpl       = "Hello, $${name}! %%{ for p in ports }$${p} %%{ endfor }"
  yaml_tpl  = "replicas: $${replicas}\npool: $${jsonencode(pool)}\n"
  bad_tpl   = "$${"
  plain     = "no template"
  vars      = { name = "kapsule", ports = [80, 443] }
  number    = 5
  tpl_list  = ["$${a}", "$${b}"]
}
