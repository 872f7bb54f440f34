true = a::b::f("%%{x}",<<EOT
cat <<EOT
EOT
,"$${x}",) != "%%{x}" ==
f(x...)
null =f(x...) ?क्ष: x.0

