locals {
  a = 1 + 2 * 3 - 4 / 2 % 3
  b = (1 + 2) * (3 - 4) / (2 % 3)
  c = 1 < 2 == true != false && !false || 3 >= 4 && 5 <= 6
  d = -1 - -2 * - -3
  e = !!true && !(false |
| !true)
  f = true ? false ? 1 : 2 : 3
  g = true ? 1 : false ? 2 : 3
  h = 1 == 1 ? "a" : "b"
  i = [1, 2, 3][0] + { a = 1 }["a"] + { a = 1 }.a
  j = [for x in [1, 2] : x * 2 if x > 1][0]
  k = { for k, v in { a = 1 } : k => v if v != null }
  l = [{ a = [1] }][0].a[0]
  m = local.list[*].id[0]
  n = local.list.*.id
  o = local.map["key"].nested[0]["x"]
  p = (local.x).y
  q = upper(lower("X"))
  r = max([1, 2, 3]...)
  s = 1.5e+3 + 2E-2 + 0.0 + 007
  t = "\"quoted\" \\ \t \r \n \u00e9 \U0001F600"
  u = 10 % -3
  v = 1 > 2 ? null : {}
  w = (((((((((((1)))))))))))
  x = [[[[[[[[[[[]]]]]]]]]]]
  y = { a = { b = { c = { d = { e = {} } } } } }
  z = !local.a == local.b
}
