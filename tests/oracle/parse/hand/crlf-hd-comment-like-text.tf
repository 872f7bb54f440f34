a = <<EOT
# not a comment
// nor this
/* nor */
EOT
