if = f(-true,)b_c "${x}" "a\nb" {
}
