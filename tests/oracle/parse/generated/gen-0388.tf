in ={null=true[
0], in=false.a} # c
