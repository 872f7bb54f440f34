region = "fr-par"
labels = { team = "apps" }
