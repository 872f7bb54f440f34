d-e =
(<<EOT
xy
EOT
 # c
)
/ x[*][*][*]
b_c = /* c */ {} /* c
 */
null
{
}