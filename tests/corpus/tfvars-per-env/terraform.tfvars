environment     = "staging"
cluster_version = "1.31.4"
