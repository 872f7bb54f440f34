b_c = "${x}" ?"a${x}b": x # c
null = # c
- -p::f(1)

null b_c {
}
