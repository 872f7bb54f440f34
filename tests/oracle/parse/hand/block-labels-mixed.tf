a b "c" {}
