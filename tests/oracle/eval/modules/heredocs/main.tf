variable "items" {
  type    = list(string)
  default = ["a", "b"]
}

variable "ports" {
  type    = map(number)
  default = { https = 443, http = 80 }
}

variable "zones" {
  type    = set(string)
  default = ["fr-par-2", "fr-par-1", "fr-par-1"]
}

locals {
  plain = <<EOT
hello
  world
EOT

  indented = <<-EOT
    hello
      world
    EOT

  indented_tabs_mixed = <<-EOT
    a
  b
    EOT

  column_zero = <<-EOT
    a
b
    EOT

  empty = <<EOT
EOT

  interpolated = <<EOT
name: ${upper("x")}
count: ${1 + 1}
escaped: $${literal} %%{literal}
EOT

  for_list = <<EOT
items:
%{ for item in var.items ~}
  - ${item}
%{ endfor ~}
done: true
EOT

  for_list_no_strip = <<EOT
items:
%{ for item in var.items }
  - ${item}
%{ endfor }
done: true
EOT

  for_map = <<-EOT
    ports:
    %{~ for name, port in var.ports }
      ${name}: ${port}
    %{~ endfor }
    EOT

  for_set = <<EOT
%{ for z in var.zones ~}
zone=${z}
%{ endfor ~}
EOT

  if_else = <<EOT
%{ if length(var.items) > 1 ~}
many
%{ else ~}
few
%{ endif ~}
end
EOT

  strip_both = <<EOT
a
  %{~ if true ~}
  b
  %{~ endif ~}
c
EOT

  helm_values = <<-EOT
    controller:
      replicaCount: ${length(var.items)}
      service:
        annotations:
    %{ for name, port in var.ports ~}
          port-${name}: "${port}"
    %{ endfor ~}
      config:
        use-proxy-protocol: "true"
    EOT

  nested_for = <<EOT
%{ for i in var.items ~}
%{ for j in [1, 2] ~}
${i}${j}
%{ endfor ~}
%{ endfor ~}
EOT

  decoded = yamldecode(local.for_list)

  template = "Hello, $${name}!"

  trailing_spaces = <<EOT
a   
b	
EOT

  crlf_free_json = <<JSON
{"a": [1, 2], "b": {"c": null}}
JSON
}
