x1 = for.null[0]
null in b_c {
}
é /* c */ "${x}" /* c */ "" /* c */ {}

