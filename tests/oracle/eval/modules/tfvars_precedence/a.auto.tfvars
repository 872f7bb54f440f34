c = "a.auto.tfvars"
d = "a.auto.tfvars"
