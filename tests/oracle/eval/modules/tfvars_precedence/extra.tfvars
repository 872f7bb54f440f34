d    = "extra.tfvars"
e    = "extra.tfvars"
list = ["x", 1]
