import {
  to = a.b
  id = "x"
}
