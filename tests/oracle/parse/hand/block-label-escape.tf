a "b\n" {}
