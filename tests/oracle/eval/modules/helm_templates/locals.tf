locals {
  values_plain = <<EOT
controller:
  replicaCount: ${var.replicas}
  service:
    annotations:
%{ for k, v in var.annotations ~}
      ${k}: "${v}"
%{ endfor ~}
EOT

  values_indented = <<-EOT
    ingress:
      hosts:
      %{~ for h in var.hosts }
        - ${h}
      %{~ endfor }
      enabled: ${length(var.hosts) > 0}
  EOT

  tolerations_yaml = <<-EOT
    tolerations:
    %{ for t in var.tolerations ~}
    - key: ${t.key}
      operator: ${t.operator}
    %{ if t.effect != null ~}
      effect: ${t.effect}
    %{ endif ~}
    %{ endfor ~}
  EOT

  zones_line = "%{ for i, z in var.zones }${i > 0 ? "," : ""}${z}%{ endfor }"

  conditional_block = <<-EOT
    %{ if var.replicas > 1 }
    ha: true
    %{ else }
    ha: false
    %{ endif }
  EOT

  stripped_both = <<-EOT
    a:
    %{~ for h in var.hosts ~}
      ${h}
    %{~ endfor ~}
    end
  EOT

  nested_loops = <<-EOT
    %{ for t in var.tolerations ~}
    ${t.key}:%{ for h in var.hosts } ${h}%{ endfor }
    %{ endfor ~}
  EOT

  column_zero = <<-EOT
    indented
no indent
      more
  EOT

  tabs = <<-EOT
	tabbed
	  line
  EOT

  empty_lines = <<-EOT
    a

    b
  EOT

  escapes = <<EOT
$${not} %%{not} $${var.replicas}
EOT

  merged_values = merge(
    yamldecode(local.values_plain),
    yamldecode(local.values_indented),
    { extra = var.extra },
  )
  encoded = yamlencode(local.merged_values)
}
