# leading comment
// another style
/* block
   comment */
resource /* between */ "a" /* labels */ "b" /* here */ {
  # inside
  x 