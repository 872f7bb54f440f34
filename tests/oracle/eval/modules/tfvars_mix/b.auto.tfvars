enabled = "true"
region  = "pl-waw"
