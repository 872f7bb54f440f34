for = false / "%{ else }"
+ a::b::f()?"%{ else }" - false / "%{ else }": 1.5e-3
