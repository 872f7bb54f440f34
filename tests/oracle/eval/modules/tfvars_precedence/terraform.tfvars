a = "terraform.tfvars"
b = "terraform.tfvars"
c = "terraform.tfvars"
