for = false / "%{ else }"
+ a::b::f()?1e3 - false / "%{ else }": 1.5e-3
