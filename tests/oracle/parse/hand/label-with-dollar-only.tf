block "$" {}
