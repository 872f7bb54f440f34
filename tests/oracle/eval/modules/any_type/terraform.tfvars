anything   = [1, "a", { b = true }]
list_any   = [1, "a"]
map_any    = { a = 1, b = "x" }
object_any = { a = [1, 2] }
