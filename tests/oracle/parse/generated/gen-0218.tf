b_c = # c
x[*][*] /* c
 */
null ={for k, v in <<EOT
cat <<EOT
EOT
 : a-b => a-b} # c
?["%{ if x }y%{ endif }" /* c */ ]: a‍b /* c */ ?x:﻿x é b_c if {} # c
