null "a\nb" "a\nb" {}
