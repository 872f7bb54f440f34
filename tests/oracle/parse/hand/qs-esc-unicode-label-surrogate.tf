block "\ud800" {}
