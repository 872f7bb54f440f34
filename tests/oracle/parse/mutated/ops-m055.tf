locals {
  a = 1 + 2 * 3 - 4 / 2 % 3
  b = (1 + 2) * (3 - 4) / (2 % 3)
  c = 1 < 2 == true != false && !false || 3 >= 4 && 5 <= 6
  d = -1 - -2 * - -3
  e = !!true && !(false || !true)
  f = true ? false ? 1 : 2 : 3
  g = true ? 1 : false ? 2 : 3
  h = 1 == 1 ? "a" : "b"
  i = [1, 2, 3][0] + { a = 1 }["a"] + { a = 1 }.a
  j = [for x in [1, 2] : x *