a = "%{~ if true ~} y %{~ else ~} n %{~ endif ~}"
