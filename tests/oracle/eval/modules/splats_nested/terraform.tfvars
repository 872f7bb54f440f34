pools = [
  {
    name   = "a"
    nodes  = [{ id = "a1", tags = ["x", "y"] }, { id = "a2", tags = [] }]
    labels = { role = "web" }
    zones  = ["fr-par-2", "fr-par-1"]
  },
  {
    name   = "b"
    nodes  = []
    labels = {}
  },
]

groups = [
  { name = "ops", members = ["ann", "bob"] },
  { name = "dev", members = ["cat"] },
]

grid = [[[1, 2], [3]], [[4]], []]

by_name = {
  web = { ports = [80, 443] }
  db  = { ports = [5432] }
}

null_objects = [{ items = ["x"] }, { items = null }]

single = { nodes = [{ id = "s1" }, { id = "s2" }] }

anything = [{ a = [1, 2] }, { a = "x" }, { a = null }, { b = 1 }]
