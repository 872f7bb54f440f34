b_c
x1
for
{
} # c
in = # c
- -x[*].y ?<<EOT
${
EOT
}
EOT
:
for /* c
 */
if
"l"
if
{}