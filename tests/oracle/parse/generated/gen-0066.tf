true = a::b::f("%%{x}",<<EOT
cat <<EOT
EOT
,"$${x}",) != "%%{x}" ==
f(x...)
null =1e3 ?"%%{x}": <<EOT
cat <<EOT
EOT

