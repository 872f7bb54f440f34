a = <<-YAML
  controller:
    replicaCount: 2
    %{~ if x ~}
    extra: true
    %{~ endif ~}
  YAML
