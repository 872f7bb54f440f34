b_c
"a\nb"
{ k = 1 }
