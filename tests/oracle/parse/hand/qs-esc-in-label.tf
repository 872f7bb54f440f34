block "\u00e9" {}
