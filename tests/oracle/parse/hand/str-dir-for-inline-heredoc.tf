a = "%{ for x in [<<EOT
q
EOT
] }${x}%{ endfor }"
