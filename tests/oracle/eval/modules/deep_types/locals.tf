locals {
  exposed     = [for name, s in var.services : name if s.expose]
  ports       = { for name, s in var.services : name => s.port }
  probe_paths = { for name, s in var.services : name => s.probes[*].path }
  limits      = { for name, s in var.services : name => s.limits }
  set_names   = [for o in var.set_objects : "${o.name}:${o.size}"]
}
