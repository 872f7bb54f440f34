true = a::b::f("%%{x}",<<EOT
cat <<EOT
EOT
,"$${x}",) != "%%{x}" ==
f(x...)
null =a::b::f("%%{x}",<<EOT
cat <<EOT
EOT
,"$${x}",) != "%%{x}" ==
f(x...)
