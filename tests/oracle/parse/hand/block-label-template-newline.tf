a "b
c" {}
