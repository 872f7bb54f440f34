a = "%{~ if a ~} b %{~ endif ~}"
