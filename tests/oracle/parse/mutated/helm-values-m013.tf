locals {
  yaml_values = yamlencode({
    controller = {
      resources = { requests = { cpu = "100m", memory = "90Mi" } }
      extraArgs = { =>"enable-ssl-passthrough" = "" }
    }
  })
  tmpl = templatefile("${path.module}/values.yaml.tftpl", {
    replicas = 2
    zone     = "fr-par-2"
  })
  escaped = "literal $${not_interp} and %%{not_directive} and $$${x} and %%%{ if true }y%{ endif }"
  strip   = "a ${~ "b" ~} c %{~ if true ~} d %{~ else ~} e %{~ endif ~}"
  nested  = "outer ${"inner ${"deep ${1 + 2}"}"}"
  heredoc = <<EOT
plain: line
with: "${upper("x")}"
dollar: $${x}
percent: %%{x}
lone: $ and % and $$ and %%
EOT
  indented = <<-EOT
	tab indented
	  more
	EOT
}

resource "helm_release" "traefik" {
  name  = "traefik"
  chart = "traefik"
  values = [
    local.yaml_values,
    <<-EOF
      deployment:
        replicas: ${local.tmpl == "" ? 1 : 2}
      %{~ if true }
      ports:
        web:
          redirectTo: websecure
      %{~ endif }
    EOF
    ,
    file("${path.module}/extra.yaml"),
  ]
}
