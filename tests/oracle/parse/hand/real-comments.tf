# leading comment
// another style
/* block
   comment */
resource /* between */ "a" /* labels */ "b" /* here */ {
  # inside
  x = 1 # trailing
  y = /* inline */ 2
  z = [ # after bracket
    1, // one
    /* two */ 2,
  ]
  w = { # after brace
    a = 1 # a
    # alone
    b = 2
  }
  f = foo( # call
    1,
    2, # trailing comma ok
  )
}
/* eof comment without newline */
