b_c /* c */ "a\nb" /* c */ true /* c */ {
  k = 1
} /* c
 */
a "l" {
}
for = {1=p::f(1), null=<<EOT
cat <<EOT
EOT
}