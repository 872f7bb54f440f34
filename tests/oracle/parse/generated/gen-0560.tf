a "${x}" "a\nb" {
}
