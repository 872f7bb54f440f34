true
b_c
null
{ k = 1 }
true =
{for for in "%{ else }" : true => true
if x}
true =
{for for in "%{ else }" : true => true
if x}
