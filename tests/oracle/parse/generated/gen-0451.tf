in =[for x in {for k, in x.y :x.y => x.y
if x} : # c
-[for x in null : <<EOT
h ${x}
EOT
]]
