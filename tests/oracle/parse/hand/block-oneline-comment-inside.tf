a { # c
}
