b_c = ( a².a ) true {
  k = 1
}

if = {for=<<EOT
${
EOT
}
EOT
}
