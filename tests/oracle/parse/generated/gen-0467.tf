é = <<-EOT
  h
  EOT
* # c
"%{~ for v in l ~}${v}%{~ endfor ~}"
d-e = p::f([for x in f() :0.5
if x],
null /* c */ && "%{ else }",) # c
for = {(x): "%%{x}"
for = "${~ x ~}"
"q"=x.y}